import assert from "node:assert/strict";
import { test } from "node:test";
import { RunnerError } from "../runner-error.ts";
import { normaliseColumnName } from "./column-names.ts";
import { locateColumns, type TableColumns } from "./csv-columns.ts";

const table = (blankMayRepeat: boolean): TableColumns<"id" | "value"> => ({
  code: "ASSAYS_INVALID",
  columns: { id: ["candidate_id", "compound_id"], value: ["p_activity", "pchembl_value"] },
  blankMayRepeat,
  require: (file, at) => {
    if (at.id < 0) throw new RunnerError("ASSAYS_INVALID", `${file} line 1: no id`);
  },
});

test("header names are compared in lower case with spaces and hyphens as underscores", () => {
  assert.equal(normaliseColumnName("pChEMBL Value"), "pchembl_value");
  assert.equal(normaliseColumnName("Candidate-ID"), "candidate_id");
});

test("each column is found by the first of its aliases present, -1 when none is", () => {
  assert.deepEqual(locateColumns("t.csv", ["pChEMBL Value", "Compound_ID", "p_activity"], table(false)), {
    id: 1,
    value: 2,
  });
  assert.deepEqual(locateColumns("t.csv", ["candidate_id", "name"], table(false)), { id: 0, value: -1 });
});

test("a repeated name is refused naming it; blank names may repeat only where the table allows", () => {
  assert.throws(
    () => locateColumns("t.csv", ["candidate_id", "Candidate ID"], table(true)),
    (error: RunnerError) =>
      error.code === "ASSAYS_INVALID" &&
      error.message === "t.csv line 1, field candidate_id: column appears twice in the header",
  );
  assert.deepEqual(locateColumns("t.csv", ["candidate_id", "", ""], table(true)), { id: 0, value: -1 });
  assert.throws(
    () => locateColumns("t.csv", ["candidate_id", "", ""], table(false)),
    /field : column appears twice/,
  );
});

test("the table's own rule on required columns runs after they are located", () => {
  assert.throws(() => locateColumns("t.csv", ["name"], table(false)), /t\.csv line 1: no id/);
});
