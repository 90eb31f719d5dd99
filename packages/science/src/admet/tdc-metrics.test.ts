import assert from "node:assert/strict";
import { test } from "node:test";
import { sigmoid } from "../fingerprint/logistic-regression.ts";
import { aurocLowerBound, averagePrecision, expectedCalibrationError, plattFit } from "./tdc-metrics.ts";

test("average precision is the mean precision at each positive's rank (worked by hand)", () => {
  // Ranks 1 and 3 are positive: (1/1 + 2/3) / 2.
  assert.ok(Math.abs(averagePrecision([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0]) - 5 / 6) < 1e-12);
  assert.equal(averagePrecision([0.9, 0.1], [1, 0]), 1);
});

test("ECE weights each probability bin's |observed rate − mean probability| by its share (worked by hand)", () => {
  // Bin [0.2, 0.3): mean 0.2, rate 0.5; bin [0.8, 0.9): mean 0.8, rate 1 → 0.5·0.3 + 0.5·0.2.
  assert.ok(Math.abs(expectedCalibrationError([0.2, 0.2, 0.8, 0.8], [0, 1, 1, 1]) - 0.25) < 1e-12);
});

test("Platt scaling recovers the slope and offset that generated the labels", () => {
  const z: number[] = [];
  const y: (0 | 1)[] = [];
  for (let v = -3; v <= 3.0001; v += 0.1) {
    const positives = Math.round(200 * sigmoid(2 * v - 1));
    for (let k = 0; k < 200; k++) {
      z.push(v);
      y.push(k < positives ? 1 : 0);
    }
  }
  const { a, b } = plattFit(z, y);
  assert.ok(Math.abs(a - 2) < 0.05 && Math.abs(b + 1) < 0.05, `a ${a}, b ${b}`);
});

test("the AUROC lower bound lies below the AUROC and narrows as the test set grows", () => {
  const small = aurocLowerBound(0.85, [...Array(20).fill(1), ...Array(20).fill(0)]);
  const large = aurocLowerBound(0.85, [...Array(2000).fill(1), ...Array(2000).fill(0)]);
  assert.ok(small < large && large < 0.85);
  assert.equal(aurocLowerBound(1, [1, 1, 0, 0]), 1);
});
