import assert from "node:assert/strict";
import { test } from "node:test";
import { rocAuc } from "../fingerprint/roc-auc.ts";
import { mlpOutput, type SparseRow, trainSparseMlp } from "./sparse-mlp.ts";

// Label = bit 3 XOR bit 7: no linear model on the bits separates it, one hidden layer does.
const rows: SparseRow[] = [];
const labels: number[] = [];
for (let i = 0; i < 400; i++) {
  const a = i % 2 === 0;
  const b = i % 3 === 0;
  rows.push({ bits: [...(a ? [3] : []), ...(b ? [7] : []), 100 + (i % 13)], x: [((i % 5) - 2) / 2] });
  labels.push(a !== b ? 1 : 0);
}
const options = {
  task: "classification" as const,
  hidden: 8,
  dense: 1,
  epochs: 60,
  batch: 32,
  learningRate: 0.01,
  weightDecay: 0,
  seed: 7,
};
const auc = (m: Parameters<typeof mlpOutput>[0]) =>
  rocAuc(
    rows.map((r) => mlpOutput(m, r)),
    labels.map((y) => y as 0 | 1),
  );

test("the sparse network learns a label no linear model of the bits can (XOR of two bits)", () => {
  const fit = trainSparseMlp(rows, labels, options, auc);
  assert.ok(fit.score > 0.99, `AUROC ${fit.score}`);
  assert.equal(auc(fit.model), fit.score, "the returned weights are the best epoch's");
});

test("the same data and seed give the same weights", () => {
  const one = trainSparseMlp(rows, labels, { ...options, epochs: 5 }, auc).model;
  const two = trainSparseMlp(rows, labels, { ...options, epochs: 5 }, auc).model;
  assert.deepEqual(one, two);
});
