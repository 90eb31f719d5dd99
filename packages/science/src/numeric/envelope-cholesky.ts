/**
 * A symmetric positive-definite matrix in envelope (profile, "skyline") storage and its Cholesky
 * factor L (A = L Lᵀ) computed in that storage (George & Liu, Computer Solution of Large Sparse
 * Positive Definite Systems, 1981, ch. 4): row i keeps its columns `first[i] .. i` contiguously, and
 * L has no entry left of A's first non-zero in any row, so the factor fits where A was. With a
 * bandwidth-reducing order (reverse Cuthill–McKee) the work is Σ rowWidth², far below the dense n³/3
 * for the spring networks of proteins.
 */
export interface EnvelopeMatrix {
  readonly n: number;
  /** The first stored column of each row (≤ the row index). */
  readonly first: Int32Array;
  /** Where each row's first stored entry is in `values`. */
  readonly start: Float64Array;
  readonly values: Float64Array;
}

/** A zero matrix with the given row envelopes; entry (i, j), first[i] ≤ j ≤ i, is at start[i] + j − first[i]. */
export function envelopeMatrix(first: Int32Array): EnvelopeMatrix {
  const n = first.length;
  const start = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = (start[i] as number) + i - (first[i] as number) + 1;
  return { n, first, start, values: new Float64Array(start[n] as number) };
}

/** Entries the envelope stores: the factor's memory (8 bytes each) and, squared per row, its work. */
export function envelopeSize(first: Int32Array): number {
  let size = 0;
  first.forEach((column, row) => {
    size += row - column + 1;
  });
  return size;
}

/** Σ a[ai + k] · b[bi + k] for k < length, four products per step (JIT-friendly). */
function dot(a: Float64Array, ai: number, b: Float64Array, bi: number, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < length; k += 4) {
    s0 += (a[ai + k] as number) * (b[bi + k] as number);
    s1 += (a[ai + k + 1] as number) * (b[bi + k + 1] as number);
    s2 += (a[ai + k + 2] as number) * (b[bi + k + 2] as number);
    s3 += (a[ai + k + 3] as number) * (b[bi + k + 3] as number);
  }
  for (; k < length; k++) s0 += (a[ai + k] as number) * (b[bi + k] as number);
  return s0 + s1 + s2 + s3;
}

/**
 * Three dot products of row segments r0, r1, r2 with one segment b, each value of b loaded once:
 * the factor streams each earlier row once per three rows instead of once per row.
 */
function dot3(
  v: Float64Array,
  r0: number,
  r1: number,
  r2: number,
  b: number,
  length: number,
  out: Float64Array,
): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let t0 = 0;
  let t1 = 0;
  let t2 = 0;
  let k = 0;
  for (; k + 1 < length; k += 2) {
    const x = v[b + k] as number;
    const y = v[b + k + 1] as number;
    s0 += (v[r0 + k] as number) * x;
    s1 += (v[r1 + k] as number) * x;
    s2 += (v[r2 + k] as number) * x;
    t0 += (v[r0 + k + 1] as number) * y;
    t1 += (v[r1 + k + 1] as number) * y;
    t2 += (v[r2 + k + 1] as number) * y;
  }
  if (k < length) {
    const x = v[b + k] as number;
    s0 += (v[r0 + k] as number) * x;
    s1 += (v[r1 + k] as number) * x;
    s2 += (v[r2 + k] as number) * x;
  }
  out[0] = s0 + t0;
  out[1] = s1 + t1;
  out[2] = s2 + t2;
}

/**
 * Overwrites A with its Cholesky factor L, row by row (the "bordering" method: row i's entries are
 * dot products of row i with each earlier row j over their common envelope). Three consecutive rows
 * with the same first column (the x, y, z rows of one node) are done together against each earlier
 * row, so the earlier rows are read from memory a third as often. Throws when a pivot is not positive
 * (A not positive definite).
 */
export function factorEnvelope(matrix: EnvelopeMatrix): void {
  const { n, first, start, values } = matrix;
  const sums = new Float64Array(3);
  /** Row i's entries from column `from` on (earlier ones already done), then its pivot. */
  const finishRow = (i: number, from: number) => {
    const fi = first[i] as number;
    const si = (start[i] as number) - fi; // values[si + j] is (i, j)
    for (let j = from; j < i; j++) {
      const fj = first[j] as number;
      const sj = (start[j] as number) - fj;
      const lo = fi > fj ? fi : fj;
      const sum = (values[si + j] as number) - dot(values, si + lo, values, sj + lo, j - lo);
      values[si + j] = sum / (values[sj + j] as number);
    }
    const pivot = (values[si + i] as number) - dot(values, si + fi, values, si + fi, i - fi);
    if (!(pivot > 0)) throw new Error(`matrix is not positive definite (pivot ${pivot} at row ${i})`);
    values[si + i] = Math.sqrt(pivot);
  };
  let i = 0;
  while (i < n) {
    const f = first[i] as number;
    if (i + 2 >= n || first[i + 1] !== f || first[i + 2] !== f) {
      finishRow(i, f);
      i++;
      continue;
    }
    const s0 = (start[i] as number) - f;
    const s1 = (start[i + 1] as number) - f;
    const s2 = (start[i + 2] as number) - f;
    for (let j = f; j < i; j++) {
      const fj = first[j] as number;
      const sj = (start[j] as number) - fj;
      const lo = f > fj ? f : fj;
      dot3(values, s0 + lo, s1 + lo, s2 + lo, sj + lo, j - lo, sums);
      const pivot = values[sj + j] as number;
      values[s0 + j] = ((values[s0 + j] as number) - (sums[0] as number)) / pivot;
      values[s1 + j] = ((values[s1 + j] as number) - (sums[1] as number)) / pivot;
      values[s2 + j] = ((values[s2 + j] as number) - (sums[2] as number)) / pivot;
    }
    finishRow(i, i);
    finishRow(i + 1, i);
    finishRow(i + 2, i);
    i += 3;
  }
}

/**
 * Solves L Lᵀ X = B in place for `columns` right-hand sides at once (B row-major, n × columns), so
 * each entry of L is read once per block rather than once per vector.
 */
export function solveEnvelope(factor: EnvelopeMatrix, b: Float64Array, columns: number): void {
  const { n, first, start, values } = factor;
  for (let i = 0; i < n; i++) {
    const fi = first[i] as number;
    const si = (start[i] as number) - fi;
    const row = i * columns;
    if (columns === 3) {
      // The block Lanczos width: three running sums, each L entry and each earlier value loaded once.
      let y0 = b[row] as number;
      let y1 = b[row + 1] as number;
      let y2 = b[row + 2] as number;
      for (let k = fi; k < i; k++) {
        const l = values[si + k] as number;
        y0 -= l * (b[3 * k] as number);
        y1 -= l * (b[3 * k + 1] as number);
        y2 -= l * (b[3 * k + 2] as number);
      }
      const d = values[si + i] as number;
      b[row] = y0 / d;
      b[row + 1] = y1 / d;
      b[row + 2] = y2 / d;
      continue;
    }
    for (let k = fi; k < i; k++) {
      const l = values[si + k] as number;
      if (l === 0) continue;
      const other = k * columns;
      for (let c = 0; c < columns; c++) b[row + c] = (b[row + c] as number) - l * (b[other + c] as number);
    }
    const d = values[si + i] as number;
    for (let c = 0; c < columns; c++) b[row + c] = (b[row + c] as number) / d;
  }
  for (let i = n - 1; i >= 0; i--) {
    const fi = first[i] as number;
    const si = (start[i] as number) - fi;
    const row = i * columns;
    const d = values[si + i] as number;
    for (let c = 0; c < columns; c++) b[row + c] = (b[row + c] as number) / d;
    if (columns === 3) {
      const x0 = b[row] as number;
      const x1 = b[row + 1] as number;
      const x2 = b[row + 2] as number;
      for (let k = fi; k < i; k++) {
        const l = values[si + k] as number;
        b[3 * k] = (b[3 * k] as number) - l * x0;
        b[3 * k + 1] = (b[3 * k + 1] as number) - l * x1;
        b[3 * k + 2] = (b[3 * k + 2] as number) - l * x2;
      }
      continue;
    }
    for (let k = fi; k < i; k++) {
      const l = values[si + k] as number;
      if (l === 0) continue;
      const other = k * columns;
      for (let c = 0; c < columns; c++) b[other + c] = (b[other + c] as number) - l * (b[row + c] as number);
    }
  }
}
