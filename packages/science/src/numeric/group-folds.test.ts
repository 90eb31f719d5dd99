import assert from "node:assert/strict";
import { test } from "node:test";
import { assignGroupFolds } from "./group-folds.ts";

test("grouped folds keep every group in one fold and balance the fold sizes", () => {
  const keys = Array.from({ length: 200 }, (_, i) => `g${i % 37}`);
  const folds = assignGroupFolds(keys, 5, 7);
  const foldOf = new Map<string, number>();
  keys.forEach((key, i) => {
    const seen = foldOf.get(key);
    if (seen === undefined) foldOf.set(key, folds[i] ?? -1);
    else assert.equal(folds[i], seen, `${key} split across folds`);
  });
  const sizes = [0, 1, 2, 3, 4].map((f) => folds.filter((x) => x === f).length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 6, `sizes ${sizes}`);
  assert.deepEqual(assignGroupFolds(keys, 5, 7), folds, "deterministic for a seed");
  assert.notDeepEqual(assignGroupFolds(keys, 5, 8), folds, "another seed, other folds");
});
