import assert from "node:assert/strict";
import { test } from "node:test";
import { butinaClusters, type ClusterInput, sparseTanimoto } from "./butina-clusters.ts";

const item = (rank: number, bits: number[]): ClusterInput => ({
  rank,
  candidate_id: `C${rank}`,
  bits: Uint16Array.from(bits),
});

test("sparse Tanimoto is |A∩B| / |A∪B| of the on-bits", () => {
  assert.equal(sparseTanimoto(Uint16Array.from([1, 2, 3, 4]), Uint16Array.from([3, 4, 5, 6])), 2 / 6);
  assert.equal(sparseTanimoto(Uint16Array.from([]), Uint16Array.from([])), 0);
});

test("Butina groups compounds within the similarity threshold; the best-ranked member leads each cluster", () => {
  // Ranks 1, 3, 4 share most bits (a series); 2 and 5 are unlike them and each other.
  const series = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const result = butinaClusters([
    item(1, series),
    item(2, [100, 101, 102, 103]),
    item(3, [...series.slice(0, 9), 11]),
    item(4, [...series.slice(1), 12]),
    item(5, [200, 201, 202]),
  ]);
  assert.deepEqual(
    result.clusters.map((c) => c.members),
    [[1, 3, 4], [2], [5]],
  );
  assert.equal(result.clusterOf.get(4), 1);
  assert.deepEqual(
    result.neighbours.get(1)?.map((n) => n.candidate_id),
    ["C3", "C4"],
  );
  assert.ok((result.neighbours.get(3)?.[0]?.tanimoto ?? 0) > 0.6);
  assert.deepEqual(result.neighbours.get(5), []);
});
