import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelopeMatrix, envelopeSize, factorEnvelope, solveEnvelope } from "./envelope-cholesky.ts";
import { mulberry32 } from "./seeded-shuffle.ts";

/** A random symmetric positive-definite matrix whose row i is zero left of `first[i]` (diagonally dominant). */
function randomEnvelope(first: Int32Array, seed: number): Float64Array {
  const n = first.length;
  const random = mulberry32(seed);
  const dense = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = first[i] as number; j < i; j++) {
      const value = random() - 0.5;
      dense[i * n + j] = value;
      dense[j * n + i] = value;
    }
  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let j = 0; j < n; j++) row += Math.abs(dense[i * n + j] as number);
    dense[i * n + i] = row + 1;
  }
  return dense;
}

describe("envelope Cholesky", () => {
  // Rows in threes with one first column (the factor's three-row path) and single rows (its one-row path).
  const first = Int32Array.from([0, 0, 0, 1, 1, 1, 0, 5, 5, 5, 9, 9, 9, 4, 12, 12]);
  const n = first.length;
  const dense = randomEnvelope(first, 7);
  const matrix = envelopeMatrix(first);
  for (let i = 0; i < n; i++)
    for (let j = first[i] as number; j <= i; j++)
      matrix.values[(matrix.start[i] as number) + j - (first[i] as number)] = dense[i * n + j] as number;
  factorEnvelope(matrix);

  it("stores only the envelope, and its factor reproduces A = L Lᵀ entry by entry", () => {
    assert.equal(matrix.values.length, envelopeSize(first));
    const l = (i: number, j: number) =>
      j < (first[i] as number) || j > i
        ? 0
        : (matrix.values[(matrix.start[i] as number) + j - (first[i] as number)] as number);
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        let sum = 0;
        for (let k = 0; k <= j; k++) sum += l(i, k) * l(j, k);
        assert.ok(Math.abs(sum - (dense[i * n + j] as number)) < 1e-12, `(${i}, ${j}): ${sum}`);
      }
  });

  for (const columns of [1, 3])
    it(`solves ${columns} right-hand side(s) at once: A x = b to 1e-12 for each`, () => {
      const random = mulberry32(11);
      const b = Float64Array.from({ length: n * columns }, () => random() - 0.5);
      const x = Float64Array.from(b);
      solveEnvelope(matrix, x, columns);
      for (let c = 0; c < columns; c++)
        for (let i = 0; i < n; i++) {
          let ax = 0;
          for (let j = 0; j < n; j++) ax += (dense[i * n + j] as number) * (x[j * columns + c] as number);
          assert.ok(Math.abs(ax - (b[i * columns + c] as number)) < 1e-12, `row ${i} column ${c}`);
        }
    });

  it("refuses a matrix that is not positive definite", () => {
    const singular = envelopeMatrix(Int32Array.from([0, 0]));
    singular.values.set([1, 1, 1]); // [[1, 1], [1, 1]]
    assert.throws(() => factorEnvelope(singular), /not positive definite/);
  });
});
