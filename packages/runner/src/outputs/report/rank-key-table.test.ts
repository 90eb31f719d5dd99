import assert from "node:assert/strict";
import { test } from "node:test";
import { RankKeyTable } from "./rank-key-table.ts";
import { compareRankKeys, RANK_KEY_WIDTH, type RankKey } from "./ranking.ts";

/** Keys shaped like rankKeyOf's: negated scores with ties, flags, counts, negated QED, index. */
function keys(count: number): number[][] {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, (_, index) => [
    -next(5) / 4,
    next(10) === 0 ? 1 : 0,
    next(3) === 0 ? 1 : 0,
    next(4),
    next(3),
    -next(100) / 100,
    index,
  ]);
}

test("ranks in the order a sort of the keys as arrays gives, across chunk boundaries", () => {
  const all = keys(20_000);
  const table = new RankKeyTable();
  for (const key of all) table.push(key);
  assert.equal(table.count, all.length);
  const expected = all
    .map((_, at) => at)
    .sort((a, b) => compareRankKeys(all[a] as RankKey, all[b] as RankKey));
  assert.deepEqual([...table.order()], expected);
  assert.deepEqual(Array.from(table.key(12_345)), all[12_345]);
});

test("a key of another width is refused, not misread", () => {
  assert.throws(() => new RankKeyTable().push([1, 2]), new RegExp(`${RANK_KEY_WIDTH} parts, not 2`));
});
