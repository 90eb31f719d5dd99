import { EigenvalueDecomposition, Matrix } from "ml-matrix";

/** Eigenvalues below this are rigid-body (zero) modes; ProDy 2.3's `ZERO` (prody.utilities). */
export const ZERO_EIGENVALUE = 1e-6;

/** The lowest non-trivial normal modes: eigenvalues ascending, each with its unit eigenvector (3N). */
export interface NormalModes {
  readonly eigenvalues: readonly number[];
  readonly vectors: readonly Float64Array[];
  /** How many zero (rigid-body) modes were skipped: 6 for one connected network. */
  readonly zeroModes: number;
}

/**
 * The `count` lowest non-zero modes of a symmetric 3N × 3N Hessian (row-major). The eigen-solver is
 * ml-matrix's `EigenvalueDecomposition` (the JAMA/EISPACK Householder tridiagonalisation and QL
 * iteration, tred2 + tql2), a maintained npm package rather than a solver written here; it computes
 * every mode, so its cost grows as (3N)³ and the caller bounds N.
 */
export function computeNormalModes(hessian: Float64Array, dof: number, count: number): NormalModes {
  const rows: Float64Array[] = [];
  for (let i = 0; i < dof; i++) rows.push(hessian.subarray(i * dof, (i + 1) * dof));
  const decomposition = new EigenvalueDecomposition(new Matrix(rows as unknown as number[][]), {
    assumeSymmetric: true,
  });
  const values = decomposition.realEigenvalues;
  const vectors = decomposition.eigenvectorMatrix;
  const order = values.map((_, at) => at).sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0));
  const nonZero = order.filter((at) => (values[at] ?? 0) > ZERO_EIGENVALUE);
  const chosen = nonZero.slice(0, count);
  return {
    eigenvalues: chosen.map((at) => values[at] ?? 0),
    vectors: chosen.map((at) => Float64Array.from(vectors.getColumn(at))),
    zeroModes: order.length - nonZero.length,
  };
}

/**
 * Per-node square fluctuations from the modes (ProDy `calcSqFlucts`): Σ_k |v_k,i|² / λ_k over the
 * node's x, y, z components, in units of k_BT/γ (Å² when γ = 1 k_BT/Å²).
 */
export function squareFluctuations(modes: NormalModes, nodes: number): Float64Array {
  const flucts = new Float64Array(nodes);
  modes.vectors.forEach((vector, k) => {
    const inverse = 1 / (modes.eigenvalues[k] ?? 1);
    for (let i = 0; i < nodes; i++) {
      const x = vector[3 * i] ?? 0;
      const y = vector[3 * i + 1] ?? 0;
      const z = vector[3 * i + 2] ?? 0;
      flucts[i] = (flucts[i] ?? 0) + (x * x + y * y + z * z) * inverse;
    }
  });
  return flucts;
}
