import assert from "node:assert/strict";
import { test } from "node:test";
import { ranks, spearman } from "./spearman.ts";

test("ties share their mean rank, and Spearman's ρ is 1 for any increasing map, −1 for a decreasing one", () => {
  assert.deepEqual(ranks([10, 20, 20, 5]), [2, 3.5, 3.5, 1]);
  assert.equal(spearman([1, 2, 3, 4], [1, 8, 27, 64]), 1);
  assert.equal(spearman([1, 2, 3, 4], [9, 4, 1, 0]), -1);
  // Textbook case with one swap among five: ρ = 1 − 6·2/(5·24) = 0.9.
  assert.ok(Math.abs((spearman([1, 2, 3, 4, 5], [1, 2, 3, 5, 4]) ?? 0) - 0.9) < 1e-12);
  assert.equal(spearman([1, 1, 1], [1, 2, 3]), null);
});
