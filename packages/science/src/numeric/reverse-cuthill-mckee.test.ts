import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reverseCuthillMcKee } from "./reverse-cuthill-mckee.ts";
import { mulberry32 } from "./seeded-shuffle.ts";

function compressed(n: number, edges: readonly (readonly [number, number])[]) {
  const lists = Array.from({ length: n }, () => [] as number[]);
  for (const [a, b] of edges) {
    lists[a]?.push(b);
    lists[b]?.push(a);
  }
  const rowStart = new Int32Array(n + 1);
  lists.forEach((list, i) => {
    rowStart[i + 1] = (rowStart[i] as number) + list.length;
  });
  return { rowStart, neighbours: Int32Array.from(lists.flatMap((list) => list.sort((p, q) => p - q))) };
}

const bandwidth = (order: Int32Array, edges: readonly (readonly [number, number])[]) => {
  const position = new Map([...order].map((old, at) => [old, at]));
  return Math.max(
    ...edges.map(([a, b]) => Math.abs((position.get(a) as number) - (position.get(b) as number))),
  );
};

describe("reverse Cuthill–McKee order", () => {
  it("turns a shuffled path back into a band of width 1, visiting every node once", () => {
    const n = 40;
    const random = mulberry32(3);
    const label = Array.from({ length: n }, (_, i) => i).sort(() => random() - 0.5);
    const edges = Array.from(
      { length: n - 1 },
      (_, i) => [label[i] as number, label[i + 1] as number] as const,
    );
    const { rowStart, neighbours } = compressed(n, edges);
    const order = reverseCuthillMcKee(rowStart, neighbours);
    assert.deepEqual(
      [...order].sort((p, q) => p - q),
      Array.from({ length: n }, (_, i) => i),
    );
    assert.equal(bandwidth(order, edges), 1);
    assert.ok(
      bandwidth(
        Int32Array.from({ length: n }, (_, i) => i),
        edges,
      ) > 1,
      "the file order was not banded",
    );
  });

  it("orders each connected component, isolated nodes included", () => {
    const edges = [
      [0, 2],
      [2, 4],
      [1, 3],
    ] as const;
    const { rowStart, neighbours } = compressed(6, edges);
    const order = reverseCuthillMcKee(rowStart, neighbours);
    assert.deepEqual(
      [...order].sort((p, q) => p - q),
      [0, 1, 2, 3, 4, 5],
    );
    assert.equal(bandwidth(order, edges), 1);
  });
});
