import assert from "node:assert/strict";
import { test } from "node:test";
import { rankCompounds, TopRanked } from "./wetlab-readiness.ts";

/** Deterministic pseudo-random scores with many ties and some unscored compounds. */
function entries(count: number) {
  let seed = 20261125;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, (_, index) => {
    const roll = next();
    return {
      index,
      candidate_id: `C${index}`,
      readiness_score: roll < 0.1 ? null : Math.round(roll * 20) / 20,
      coverage: roll < 0.1 ? null : 0.875,
    };
  });
}

test("keeping only the best ranks as compounds arrive gives the same first ranks as ranking them all", () => {
  const all = entries(5000);
  for (const limit of [1, 7, 100, 1000]) {
    const top = new TopRanked(limit);
    for (const entry of all) top.add(entry);
    assert.equal(top.count, all.length);
    assert.deepEqual(top.ranking(), rankCompounds(all).slice(0, limit), `limit ${limit}`);
  }
});

test("a portfolio smaller than the limit is ranked whole", () => {
  const all = entries(30);
  const top = new TopRanked(1000);
  for (const entry of all) top.add(entry);
  assert.deepEqual(top.ranking(), rankCompounds(all));
});
