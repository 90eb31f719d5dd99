import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultRunId, describeIdProblem, ID_RULE, idLabelValue, isSafeId, runIdSchema } from "./run-id.ts";

const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/; // Kubernetes label value syntax

test("the grammar accepts label-safe ids of 1 to 128 characters, alphanumeric at both ends", () => {
  for (const id of ["a", "run_20260101T000000Z", "p.1-x_2", "A".repeat(128), `r${"-".repeat(126)}9`])
    assert.equal(isSafeId(id), true, id);
});

test("the grammar refuses colons, slashes, edge punctuation, empty and over-long ids", () => {
  for (const id of ["", "run:1", "a/b", "-run", "run-", "run.", "_run", "A".repeat(129), "run 1", "rün"])
    assert.equal(isSafeId(id), false, id);
});

test("every package's message for a bad id is the field name followed by the one rule", () => {
  assert.equal(describeIdProblem("runId", "run-"), `runId ${ID_RULE}`);
  assert.equal(describeIdProblem("runId", "run-1"), null);
  const parsed = runIdSchema.safeParse("run:1");
  assert.equal(parsed.success ? "" : parsed.error.issues[0]?.message, ID_RULE);
});

test("the default run id is run_ and the UTC second, and is itself a valid id", () => {
  const id = defaultRunId(new Date("2026-03-04T05:06:07.890Z"));
  assert.equal(id, "run_20260304T050607Z");
  assert.equal(isSafeId(id), true);
});

test("a label value keeps a short id and hashes a long one into a valid, distinct label", () => {
  assert.equal(idLabelValue("run-1"), "run-1");
  const long = `r${"x".repeat(99)}`;
  const other = `r${"x".repeat(98)}y`;
  assert.match(idLabelValue(long), LABEL_VALUE);
  assert.equal(idLabelValue(long).length, 62);
  assert.notEqual(idLabelValue(long), idLabelValue(other));
  assert.equal(idLabelValue(long), idLabelValue(long));
  assert.equal(idLabelValue("A".repeat(63)), "A".repeat(63));
});
