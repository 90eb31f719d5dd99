import assert from "node:assert/strict";
import { test } from "node:test";
import { readTableFile, refusalOf } from "../../test/support/table-file.ts";
import type { RunnerError } from "../runner-error.ts";
import { assertAssayCandidatesKnown, readAssayTable } from "./assays-csv.ts";

const table = (t: { after: (fn: () => unknown) => void }, text: string) =>
  readTableFile(t, "assays.csv", text, (path) => readAssayTable(path, "01_sources/assays.csv"));
const refusal = (t: { after: (fn: () => unknown) => void }, text: string) => refusalOf(() => table(t, text));

test("p values, pchembl_value and value + unit all become p = −log10(molar); replicates are averaged", async (t) => {
  const pTable = await table(
    t,
    "Candidate_ID,Assay_ID,p_activity\nA,kinase,6.0\nA,kinase,7.0\nB,kinase,5.5\n",
  );
  assert.deepEqual(Object.fromEntries(pTable.activities), { A: { kinase: 6.5 }, B: { kinase: 5.5 } });
  assert.equal(pTable.rowCount, 3);

  // A ChEMBL export's header with spaces, semicolon-separated.
  const chembl = await table(t, "Compound_ID;pChEMBL Value\nA;7.25\n");
  assert.deepEqual(chembl.activities.get("A"), { assay: 7.25 });

  const units = await table(
    t,
    "compound_id\tassay\tvalue\tunit\nA\tx\t100\tnM\nB\tx\t1\tµM\nC\tx\t1\tμM\nD\tx\t2\tmM\nE\tx\t0.001\tM\nF\tx\t10\tuM\n",
  );
  assert.deepEqual(Object.fromEntries(units.activities), {
    A: { x: 7 },
    B: { x: 6 },
    C: { x: 6 },
    D: { x: 2.699 },
    E: { x: 3 },
    F: { x: 5 },
  });
  assert.deepEqual(units.assayIds, ["x"]);
});

test("a bad value, unit or id is ASSAYS_INVALID naming the file, line and field", async (t) => {
  const header = "candidate_id,assay_id,value,unit\n";
  const cases: [string, RegExp][] = [
    [
      `${header}A,x,12,nM\nB,x,abc,nM\n`,
      /01_sources\/assays\.csv line 3, field value: "abc" is not a number/,
    ],
    [`${header}A,x,-5,nM\n`, /line 2, field value: -5 is not positive/],
    [`${header}A,x,0,nM\n`, /line 2, field value: 0 is not positive/],
    [`${header}A,x,5,ppm\n`, /line 2, field unit: unknown unit "ppm"/],
    [`${header}A,x,5,\n`, /line 2, field unit: no unit/],
    [`${header},x,5,nM\n`, /line 2, field candidate_id: empty candidate id/],
    [`${header}A,x,,nM\n`, /line 2, field value: no activity value/],
    ["candidate_id,p_activity\nA,-1\n", /line 2, field p_activity: -1 is not positive/],
    ["candidate_id,smiles\nA,CCO\n", /line 1: no activity column/],
    ["assay_id,p_activity\nx,5\n", /line 1: no "candidate_id" column/],
    ["candidate_id,value\nA,5\n", /line 1: a "value" column needs a "unit" column/],
    ["candidate_id,p_activity\nA,5,6\n", /line 2: 3 fields, the header has 2/],
    ["candidate_id,p_activity\n", /no data rows/],
  ];
  for (const [text, message] of cases) {
    const error = await refusal(t, text);
    assert.equal(error.code, "ASSAYS_INVALID", text);
    assert.match(error.message, message, text);
    assert.equal(error.exitCode, 2);
  }
});

test("candidate ids absent from the portfolio are ASSAY_CANDIDATE_UNKNOWN with their lines", async (t) => {
  const assays = await table(t, "candidate_id,p_activity\nA,5\nZ,6\nA,7\nY,4\n");
  assert.doesNotThrow(() => assertAssayCandidatesKnown(assays, "f", () => true));
  assert.throws(
    () => assertAssayCandidatesKnown(assays, "01_sources/assays.csv", (id) => id === "A"),
    (error: RunnerError) =>
      error.code === "ASSAY_CANDIDATE_UNKNOWN" &&
      error.message ===
        '01_sources/assays.csv: 2 candidate id(s) not in the portfolio: line 3, field candidate_id: "Z"; line 5, field candidate_id: "Y"',
  );
});
