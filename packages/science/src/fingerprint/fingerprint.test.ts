import assert from "node:assert/strict";
import { test } from "node:test";
import { randomSplit } from "../numeric/random-split.ts";
import { predictLogistic, trainLogistic } from "./logistic-regression.ts";
import { decodeOnBits, encodeOnBits, packBits, tanimoto } from "./morgan.ts";
import { fingerprintSet, maxTanimoto, nearestNeighbours } from "./reference-set.ts";
import { rocAuc } from "./roc-auc.ts";

test("ROC-AUC is the Mann–Whitney statistic with ties counting one half", () => {
  // Positives 0.9, 0.4; negatives 0.8, 0.4, 0.1:
  // (0.9 vs 0.8, 0.4, 0.1) = 3 wins; (0.4 vs 0.8) = 0, (0.4 vs 0.4) = ½, (0.4 vs 0.1) = 1 → 4.5 / 6.
  assert.equal(rocAuc([0.9, 0.8, 0.4, 0.4, 0.1], [1, 0, 1, 0, 0]), 0.75);
  assert.ok(Number.isNaN(rocAuc([0.1, 0.2], [0, 0])));
});

test("Tanimoto counts shared over union bits; the hex form round-trips", () => {
  const a = packBits([1, 2, 3, 2047]);
  const b = packBits([2, 3, 4]);
  assert.equal(tanimoto(a, b), 2 / 5);
  assert.equal(tanimoto(a, a), 1);
  assert.deepEqual(decodeOnBits(encodeOnBits([0, 31, 32, 2047])), [0, 31, 32, 2047]);
  assert.deepEqual(
    nearestNeighbours(a, fingerprintSet([b, a, packBits([9])]), 2).map((n) => n.index),
    [1, 0],
  );
});

test("logistic regression separates a bit that decides the label; the split is 80/10/10 and seeded", () => {
  const rows = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? [5, 7] : [7]));
  const labels = rows.map((r) => (r.includes(5) ? 1 : 0) as 0 | 1);
  const model = trainLogistic(rows, labels, { l2: 1e-3, iterations: 200, learningRate: 0.05 });
  assert.ok(predictLogistic(model, [5, 7]) > 0.9);
  assert.ok(predictLogistic(model, [7]) < 0.1);
  const parts = randomSplit(1000, 1);
  assert.equal(parts.filter((p) => p === "train").length, 800);
  assert.equal(parts.filter((p) => p === "test").length, 100);
  assert.deepEqual(parts, randomSplit(1000, 1));
  assert.notDeepEqual(parts, randomSplit(1000, 2));
});

test("maxTanimoto over a counted set equals the plain pairwise maximum, asked once or twice", () => {
  const members = [packBits([1, 2, 3]), packBits([2, 3, 4, 5]), packBits([100])];
  const set = fingerprintSet(members);
  const query = packBits([2, 3, 4]);
  const plain = Math.max(...members.map((m) => tanimoto(query, m)));
  assert.equal(maxTanimoto(query, set), plain);
  assert.equal(maxTanimoto(query, set), plain);
  assert.equal(maxTanimoto(packBits([100]), set), 1);
  assert.equal(maxTanimoto(query, fingerprintSet([])), 0);
});

test("decodeOnBits reads every three-digit hex value (lower and upper case) as parseInt does", () => {
  const values = Array.from({ length: 4096 }, (_, v) => v);
  const lower = values.map((v) => v.toString(16).padStart(3, "0")).join("");
  assert.deepEqual(decodeOnBits(lower), values);
  assert.deepEqual(decodeOnBits(lower.toUpperCase()), values);
  // Not hex: the digits parseInt reads before the first other character, as before.
  assert.deepEqual(decodeOnBits("0g1fff"), [0, 4095]);
});
