import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DOMAIN_MIN_BIN,
  domainFloor,
  randomPairPercentile,
  type ScoredTestCompound,
} from "./domain-floor.ts";

// Synthetic test compounds: `n` per similarity, labels alternating, predictions perfect (AUROC 1)
// above `good` and reversed (AUROC 0) below it.
function classifierSet(similarities: readonly number[], n: number, good: number): ScoredTestCompound[] {
  return similarities.flatMap((similarity) =>
    Array.from({ length: n }, (_, i) => {
      const observed = i % 2;
      const right = similarity >= good;
      return {
        similarity,
        observed,
        predicted: right ? 0.2 + 0.6 * observed + i / 1000 : 0.8 - 0.6 * observed,
      };
    }),
  );
}

describe("the domain floor: where the scaffold-test error rises, never below random pairs (issue 36 item 5)", () => {
  it("a classifier right above Tanimoto 0.35 and wrong below gets the floor 0.35; the bins below are marked worse", () => {
    const test = classifierSet([0.2, 0.27, 0.32, 0.37, 0.42, 0.47, 0.55, 0.7, 0.8], 40, 0.35);
    const floor = domainFloor("classification", test, 0.19);
    assert.equal(floor.metric, "auroc");
    assert.equal(floor.error_floor, 0.35);
    assert.equal(floor.min_tanimoto, 0.35);
    assert.deepEqual(
      floor.bins.map((b) => [b.from, b.within_margin]),
      [
        [0, false],
        [0.25, false],
        [0.3, false],
        [0.35, true],
        [0.4, true],
        [0.45, true],
        [0.5, true],
        [0.6, true],
      ],
    );
  });

  it("a model whose error never rises is floored at random pairs' similarity, not at 0", () => {
    const test = classifierSet([0.1, 0.27, 0.5, 0.8], 40, 0);
    const floor = domainFloor("classification", test, 0.21);
    assert.equal(floor.error_floor, 0);
    assert.equal(floor.min_tanimoto, 0.21);
  });

  it("a regressor whose absolute error quadruples below 0.35 gets the floor 0.35; a bin under the minimum size joins the bin above", () => {
    const test: ScoredTestCompound[] = [0.2, 0.3, 0.45, 0.7].flatMap((similarity) =>
      Array.from({ length: 30 }, (_, i) => ({
        similarity,
        observed: i,
        predicted: i + (similarity < 0.4 ? 2 : 0.5),
      })),
    );
    // Fewer than the minimum at 0.52: merged into the 0.6–1 bin above, not a bin of its own; the
    // empty 0.35–0.45 bins join 0.45–0.5, so the gap does not lift the floor above the bad bin's edge.
    const thin = Array.from({ length: DOMAIN_MIN_BIN - 1 }, () => ({
      similarity: 0.52,
      observed: 0,
      predicted: 0.5,
    }));
    const floor = domainFloor("regression", [...test, ...thin], 0.18);
    assert.equal(floor.metric, "mae");
    assert.equal(floor.error_floor, 0.35);
    assert.ok(
      floor.bins.some((b) => b.from === 0.5 && b.to === 1 && b.compounds === 30 + DOMAIN_MIN_BIN - 1),
    );
    assert.ok(floor.bins.some((b) => b.from === 0.35 && b.to === 0.5 && b.compounds === 30));
    assert.ok(floor.bins.some((b) => b.from === 0.25 && b.to === 0.35 && !b.within_margin));
  });

  it("random pairs' 95th percentile is seeded: the same set gives the same figure, a more similar set a higher one", () => {
    const loose = randomPairPercentile(100, (i, j) => ((i * 7 + j * 13) % 100) / 400);
    assert.equal(
      loose,
      randomPairPercentile(100, (i, j) => ((i * 7 + j * 13) % 100) / 400),
    );
    assert.ok(randomPairPercentile(100, (i, j) => 0.5 + ((i + j) % 10) / 100) > loose);
  });
});
