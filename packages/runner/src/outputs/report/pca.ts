// Principal component analysis of standardized descriptors (Pearson 1901; Jolliffe, Principal
// Component Analysis, 2nd ed. 2002, §1–3): z-score every column, eigen-decompose the correlation
// matrix with cyclic Jacobi rotations (deterministic, exact enough for d ≤ 20), project onto the
// first two components. Signs are fixed so the largest loading of each component is positive,
// so the same portfolio always gives the same picture.

export interface PcaResult {
  /** One [pc1, pc2] per input row. */
  readonly scores: ReadonlyArray<readonly [number, number]>;
  /** Share of the total variance each of the two components explains. */
  readonly explained: readonly [number, number];
  /** Loadings of the two components, one number per column. */
  readonly loadings: readonly [readonly number[], readonly number[]];
}

/** Two-component PCA of `rows` (n × d, no missing values). */
export function projectPca(rows: ReadonlyArray<readonly number[]>): PcaResult {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  if (n === 0 || d === 0) return { scores: [], explained: [0, 0], loadings: [[], []] };
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (const row of rows) for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / n;
  for (const row of rows)
    for (let j = 0; j < d; j++) sd[j] = (sd[j] ?? 0) + ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2 / n;
  for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j] ?? 0);
  const z = rows.map((row) =>
    Array.from({ length: d }, (_, j) => {
      const s = sd[j] ?? 0;
      return s > 0 ? ((row[j] ?? 0) - (mean[j] ?? 0)) / s : 0;
    }),
  );
  const cov = new Float64Array(d * d);
  for (const row of z)
    for (let i = 0; i < d; i++)
      for (let j = i; j < d; j++)
        cov[i * d + j] = (cov[i * d + j] ?? 0) + ((row[i] ?? 0) * (row[j] ?? 0)) / n;
  for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) cov[i * d + j] = cov[j * d + i] ?? 0;
  const { values, vectors } = jacobiEigen(cov, d);
  const order = Array.from({ length: d }, (_, at) => at).sort(
    (a, b) => (values[b] ?? 0) - (values[a] ?? 0) || a - b,
  );
  const total = Array.from(values).reduce((sum, value) => sum + Math.max(value, 0), 0);
  const component = (k: number): number[] => {
    const c = order[k] ?? 0;
    const column = Array.from({ length: d }, (_, row) => vectors[row * d + c] ?? 0);
    let largest = 0;
    for (const value of column) if (Math.abs(value) > Math.abs(largest) + 1e-12) largest = value;
    return largest < 0 ? column.map((value) => -value) : column;
  };
  const pc1 = component(0);
  const pc2 = d > 1 ? component(1) : new Array<number>(d).fill(0);
  const dot = (a: readonly number[], b: readonly number[]) =>
    a.reduce((sum, value, j) => sum + value * (b[j] ?? 0), 0);
  const share = (k: number) => (total > 0 && k < d ? Math.max(values[order[k] ?? 0] ?? 0, 0) / total : 0);
  return {
    scores: z.map((row) => [dot(row, pc1), dot(row, pc2)] as const),
    explained: [share(0), share(1)],
    loadings: [pc1, pc2],
  };
}

/** Eigenvalues and column eigenvectors of a symmetric d × d matrix, row-major (cyclic Jacobi). */
function jacobiEigen(matrix: Float64Array, d: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  const get = (m: Float64Array, i: number, j: number) => m[i * d + j] ?? 0;
  // Applies the rotation (c, s) in the (p, q) plane to columns p and q of m.
  const rotateColumns = (m: Float64Array, p: number, q: number, c: number, s: number) => {
    for (let k = 0; k < d; k++) {
      const mkp = get(m, k, p);
      const mkq = get(m, k, q);
      m[k * d + p] = c * mkp - s * mkq;
      m[k * d + q] = s * mkp + c * mkq;
    }
  };
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += get(a, p, q) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < d; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = get(a, p, q);
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (get(a, q, q) - get(a, p, p)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        rotateColumns(a, p, q, c, s);
        for (let k = 0; k < d; k++) {
          const apk = get(a, p, k);
          const aqk = get(a, q, k);
          a[p * d + k] = c * apk - s * aqk;
          a[q * d + k] = s * apk + c * aqk;
        }
        rotateColumns(v, p, q, c, s);
      }
    }
  }
  return { values: Float64Array.from({ length: d }, (_, i) => get(a, i, i)), vectors: v };
}
