import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blockLanczos } from "./block-lanczos.ts";

/** A diagonal operator: the exact eigenpairs are known. */
function diagonalOperator(diagonal: readonly number[]) {
  return (block: Float64Array, columns: number) => {
    const out = new Float64Array(block.length);
    diagonal.forEach((d, i) => {
      for (let c = 0; c < columns; c++) out[i * columns + c] = d * (block[i * columns + c] as number);
    });
    return out;
  };
}

describe("block Lanczos with full reorthogonalisation", () => {
  const n = 300;
  // Largest values 10, 10 (a pair), 9, 8, …; the rest spread in (0, 1].
  const diagonal = Array.from({ length: n }, (_, i) => (i < 12 ? 10 - Math.max(0, i - 1) : (i + 1) / n));
  const run = (deflation: Float64Array[] = []) =>
    blockLanczos({
      dimension: n,
      apply: diagonalOperator(diagonal),
      deflation,
      blockSize: 4,
      seed: 1,
      tolerance: 1e-10,
      needed: () => 6,
      maxBasis: 200,
    });

  it("finds the largest eigenvalues, a repeated one twice, with unit eigenvectors", () => {
    const result = run();
    assert.deepEqual(
      result.values.map((value) => Number(value.toFixed(9))),
      [10, 10, 9, 8, 7, 6],
    );
    for (const vector of result.vectors) {
      const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-9);
    }
    // The pair spans coordinates 0 and 1; mode "9" is coordinate 2.
    const weight = (vector: Float64Array, at: number) => (vector[at] as number) ** 2;
    const first = result.vectors[0] as Float64Array;
    const second = result.vectors[1] as Float64Array;
    assert.ok(Math.abs(weight(first, 0) + weight(first, 1) - 1) < 1e-9);
    assert.ok(Math.abs(weight(second, 0) + weight(second, 1) - 1) < 1e-9);
    assert.ok(Math.abs(weight(result.vectors[2] as Float64Array, 2) - 1) < 1e-9);
  });

  it("never returns a deflated direction, and the same seed gives the same vectors", () => {
    const deflated = new Float64Array(n);
    deflated[2] = 1; // the eigenvalue 9
    const result = run([deflated]);
    assert.deepEqual(
      result.values.map((value) => Number(value.toFixed(9))),
      [10, 10, 8, 7, 6, 5],
    );
    assert.deepEqual(run([deflated]).vectors, result.vectors);
  });
});
