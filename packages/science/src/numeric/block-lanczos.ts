import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { mulberry32 } from "./seeded-shuffle.ts";

/**
 * The largest eigenpairs of a symmetric operator by block Lanczos with full reorthogonalisation
 * (Golub & Underwood 1977; Golub & Van Loan, Matrix Computations, 4th ed., §10.3.6 and §10.1.7 on
 * reorthogonalisation). A block of several vectors finds repeated eigenvalues (identical chains give
 * pairs) that a single Lanczos vector cannot; every new block is orthogonalised twice ("twice is
 * enough", Giraud et al. 2005) against the whole basis and the deflated subspace, so no ghost copies
 * appear; the Rayleigh–Ritz step solves the small projected matrix with ml-matrix. The start block is
 * drawn from a seeded generator, so the result is deterministic.
 */
export interface BlockLanczosOptions {
  /** Length of each vector. */
  readonly dimension: number;
  /** The operator on `columns` vectors stored row-major (dimension × columns); returns a new array. */
  readonly apply: (block: Float64Array, columns: number) => Float64Array;
  /** Orthonormal vectors of an invariant subspace to exclude (e.g. known zero modes). */
  readonly deflation: readonly Float64Array[];
  readonly blockSize: number;
  readonly seed: number;
  /** A Ritz pair (θ, x) has converged when ‖A x − θ x‖ ≤ tolerance · |θ|. */
  readonly tolerance: number;
  /** How many of the largest Ritz values must converge, given all of them in descending order. */
  readonly needed: (values: readonly number[]) => number;
  /** The largest basis allowed before giving up. */
  readonly maxBasis: number;
}

export interface BlockLanczosResult {
  /** The converged eigenvalues, descending. */
  readonly values: number[];
  readonly vectors: Float64Array[];
  /** Operator applications (vectors). */
  readonly applications: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s0 = 0;
  let s1 = 0;
  const n = a.length;
  let k = 0;
  for (; k + 1 < n; k += 2) {
    s0 += (a[k] as number) * (b[k] as number);
    s1 += (a[k + 1] as number) * (b[k + 1] as number);
  }
  if (k < n) s0 += (a[k] as number) * (b[k] as number);
  return s0 + s1;
}

/** w −= c · v */
function subtract(w: Float64Array, c: number, v: Float64Array): void {
  for (let k = 0; k < w.length; k++) w[k] = (w[k] as number) - c * (v[k] as number);
}

/** Orthogonalises w against `basis` (classical Gram–Schmidt, two passes); returns the summed coefficients. */
function orthogonalise(w: Float64Array, basis: readonly Float64Array[]): number[] {
  const total = new Array<number>(basis.length).fill(0);
  for (let pass = 0; pass < 2; pass++) {
    const coefficients = basis.map((v) => dot(v, w));
    basis.forEach((v, i) => {
      subtract(w, coefficients[i] as number, v);
      total[i] = (total[i] as number) + (coefficients[i] as number);
    });
  }
  return total;
}

export function blockLanczos(options: BlockLanczosOptions): BlockLanczosResult {
  const { dimension: n, blockSize: b, deflation } = options;
  const random = mulberry32(options.seed);
  const space = n - deflation.length;
  const maxBasis = Math.min(options.maxBasis, space);
  const basis: Float64Array[] = [];
  // T[i * maxBasis + j] = v_iᵀ A v_j, filled for block(i) ≤ block(j) as each block is applied.
  const projected = new Float64Array(maxBasis * maxBasis);
  let applications = 0;

  /** A fresh direction orthogonal to the deflation, the basis and `also`; null when the space is spent. */
  const freshVector = (also: readonly Float64Array[]): Float64Array | null => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const v = new Float64Array(n);
      for (let k = 0; k < n; k++) v[k] = random() - 0.5;
      orthogonalise(v, deflation);
      orthogonalise(v, basis);
      orthogonalise(v, also);
      const norm = Math.sqrt(dot(v, v));
      if (norm > 1e-8) {
        for (let k = 0; k < n; k++) v[k] = (v[k] as number) / norm;
        return v;
      }
    }
    return null;
  };

  // The Rayleigh–Ritz check costs O(m³) on the projected matrix: it runs each time the basis has grown
  // by a sixth, so the checks add a bounded share however many blocks convergence takes.
  let checkpoint = 0;
  let block: Float64Array[] = [];
  for (let c = 0; c < b; c++) {
    const v = freshVector(block);
    if (v !== null) block.push(v);
  }
  for (;;) {
    const offset = basis.length;
    basis.push(...block);
    const width = block.length;
    const packed = new Float64Array(n * width);
    block.forEach((v, c) => {
      for (let k = 0; k < n; k++) packed[k * width + c] = v[k] as number;
    });
    const image = options.apply(packed, width);
    applications += width;
    const next: Float64Array[] = [];
    // coupling[c][p]: the coefficient of the next block's p-th vector in what is left of A v_c (c in the
    // current block) after the basis is taken out: A V = V T + Q_next C, upper-triangular C.
    const coupling: number[][] = [];
    for (let c = 0; c < width; c++) {
      const w = new Float64Array(n);
      for (let k = 0; k < n; k++) w[k] = image[k * width + c] as number;
      const before = Math.sqrt(dot(w, w));
      orthogonalise(w, deflation);
      const coefficients = orthogonalise(w, basis);
      coefficients.forEach((value, i) => {
        projected[i * maxBasis + offset + c] = value;
      });
      const along = orthogonalise(w, next);
      const norm = Math.sqrt(dot(w, w));
      if (norm > 1e-10 * Math.max(before, Number.MIN_VALUE)) {
        for (let k = 0; k < n; k++) w[k] = (w[k] as number) / norm;
        coupling.push([...along, norm]);
        next.push(w);
      } else {
        coupling.push(along);
        // A v_c lies in the basis already (an invariant subspace): carry on from a fresh direction, coupled by 0.
        const fresh = basis.length + next.length < maxBasis ? freshVector(next) : null;
        if (fresh !== null) next.push(fresh);
      }
    }
    const m = basis.length;
    const exhausted = next.length === 0 || m + next.length > maxBasis;
    if (m < checkpoint && !exhausted) {
      block = next;
      continue;
    }
    checkpoint = Math.ceil(m * 1.16);
    const symmetric = new Matrix(m, m);
    for (let i = 0; i < m; i++)
      for (let j = i; j < m; j++) {
        const value = projected[i * maxBasis + j] as number;
        symmetric.set(i, j, value);
        symmetric.set(j, i, value);
      }
    const decomposition = new EigenvalueDecomposition(symmetric, { assumeSymmetric: true });
    const values = decomposition.realEigenvalues;
    const order = values.map((_, at) => at).sort((p, q) => (values[q] as number) - (values[p] as number));
    const ritz = order.map((at) => values[at] as number);
    const needed = Math.min(options.needed(ritz), m);
    const y = decomposition.eigenvectorMatrix;
    // ‖A x − θ x‖ = ‖C y_last‖: only the last block's coefficients reach outside the basis.
    const residual = (at: number): number => {
      let sum = 0;
      for (let p = 0; p < next.length; p++) {
        let r = 0;
        coupling.forEach((column, c) => {
          r += (column[p] ?? 0) * y.get(offset + c, at);
        });
        sum += r * r;
      }
      return Math.sqrt(sum);
    };
    const converged = order
      .slice(0, needed)
      .every((at, rank) => residual(at) <= options.tolerance * Math.abs(ritz[rank] as number));
    if (converged || exhausted) {
      if (!converged && m < space)
        throw new Error(`block Lanczos did not converge within a basis of ${m} vectors`);
      const chosen = order.slice(0, needed);
      return {
        values: chosen.map((at) => values[at] as number),
        vectors: chosen.map((at) => {
          const x = new Float64Array(n);
          basis.forEach((v, j) => {
            const c = y.get(j, at);
            for (let k = 0; k < n; k++) x[k] = (x[k] as number) + c * (v[k] as number);
          });
          return x;
        }),
        applications,
      };
    }
    block = next;
  }
}
