/**
 * The lower-triangular Cholesky factor L of a symmetric positive-definite A (row-major, n × n),
 * A = L Lᵀ. A is not modified. Used to fit ridge and kernel ridge regressions.
 */
export function choleskyFactor(a: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const rowI = i * n;
    for (let j = 0; j <= i; j++) {
      const rowJ = j * n;
      let sum = a[rowI + j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (l[rowI + k] ?? 0) * (l[rowJ + k] ?? 0);
      if (i === j) {
        if (sum <= 0) throw new Error("matrix is not positive definite");
        l[rowI + i] = Math.sqrt(sum);
      } else l[rowI + j] = sum / (l[rowJ + j] ?? 1);
    }
  }
  return l;
}

/**
 * Solves L Lᵀ X = B for `columns` right-hand sides at once (B row-major, n × columns; B is not
 * modified): one factorisation serves many responses, e.g. every y-scramble of one fold.
 */
export function solveFactored(l: Float64Array, n: number, b: Float64Array, columns: number): Float64Array {
  const x = Float64Array.from(b);
  // Forward: L Y = B, row by row; each update is a contiguous row of `columns` values.
  for (let i = 0; i < n; i++) {
    const rowI = i * columns;
    for (let k = 0; k < i; k++) {
      const lik = l[i * n + k] ?? 0;
      if (lik === 0) continue;
      const rowK = k * columns;
      for (let c = 0; c < columns; c++) x[rowI + c] = (x[rowI + c] ?? 0) - lik * (x[rowK + c] ?? 0);
    }
    const d = l[i * n + i] ?? 1;
    for (let c = 0; c < columns; c++) x[rowI + c] = (x[rowI + c] ?? 0) / d;
  }
  // Backward: Lᵀ X = Y.
  for (let i = n - 1; i >= 0; i--) {
    const rowI = i * columns;
    for (let k = i + 1; k < n; k++) {
      const lki = l[k * n + i] ?? 0;
      if (lki === 0) continue;
      const rowK = k * columns;
      for (let c = 0; c < columns; c++) x[rowI + c] = (x[rowI + c] ?? 0) - lki * (x[rowK + c] ?? 0);
    }
    const d = l[i * n + i] ?? 1;
    for (let c = 0; c < columns; c++) x[rowI + c] = (x[rowI + c] ?? 0) / d;
  }
  return x;
}

/** Solves A x = b for a symmetric positive-definite A (row-major, n × n) by Cholesky decomposition. */
export function solveSpd(a: Float64Array, n: number, b: Float64Array): Float64Array {
  return solveFactored(choleskyFactor(a, n), n, b, 1);
}

/**
 * A⁻¹ (row-major, n × n) from A's Cholesky factor L: W = L⁻¹ by forward substitution (W is lower
 * triangular, so row i needs only columns ≤ i), then A⁻¹ = Wᵀ W. About n³/3 multiply–adds.
 */
export function inverseFromFactor(l: Float64Array, n: number): Float64Array {
  const w = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const rowI = i * n;
    w[rowI + i] = 1;
    for (let k = 0; k < i; k++) {
      const lik = l[rowI + k] as number;
      if (lik === 0) continue;
      const rowK = k * n;
      for (let c = 0; c <= k; c++) w[rowI + c] = (w[rowI + c] as number) - lik * (w[rowK + c] as number);
    }
    const d = l[rowI + i] as number;
    for (let c = 0; c <= i; c++) w[rowI + c] = (w[rowI + c] as number) / d;
  }
  const inverse = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const rowK = k * n;
    for (let i = 0; i <= k; i++) {
      const wki = w[rowK + i] as number;
      if (wki === 0) continue;
      const rowI = i * n;
      for (let j = 0; j <= i; j++)
        inverse[rowI + j] = (inverse[rowI + j] as number) + wki * (w[rowK + j] as number);
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) inverse[j * n + i] = inverse[i * n + j] as number;
  return inverse;
}
