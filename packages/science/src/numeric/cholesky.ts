/**
 * Solves A x = b for a symmetric positive-definite A (row-major, n × n) by Cholesky
 * decomposition. A is not modified. Used to fit ridge and kernel ridge regressions.
 */
export function solveSpd(a: Float64Array, n: number, b: Float64Array): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (l[i * n + k] ?? 0) * (l[j * n + k] ?? 0);
      if (i === j) {
        if (sum <= 0) throw new Error("matrix is not positive definite");
        l[i * n + i] = Math.sqrt(sum);
      } else l[i * n + j] = sum / (l[j * n + j] ?? 1);
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i] ?? 0;
    for (let k = 0; k < i; k++) sum -= (l[i * n + k] ?? 0) * (y[k] ?? 0);
    y[i] = sum / (l[i * n + i] ?? 1);
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i] ?? 0;
    for (let k = i + 1; k < n; k++) sum -= (l[k * n + i] ?? 0) * (x[k] ?? 0);
    x[i] = sum / (l[i * n + i] ?? 1);
  }
  return x;
}
