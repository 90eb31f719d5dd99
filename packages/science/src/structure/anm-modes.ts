import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { blockLanczos } from "../numeric/block-lanczos.ts";
import { envelopeMatrix, factorEnvelope, solveEnvelope } from "../numeric/envelope-cholesky.ts";
import { reverseCuthillMcKee } from "../numeric/reverse-cuthill-mckee.ts";
import { type AnmHessian, denseHessian, multiplyHessian, networkComponents } from "./anm-hessian.ts";

/** Eigenvalues below this are rigid-body (zero) modes; ProDy 2.3's `ZERO` (prody.utilities). */
export const ZERO_EIGENVALUE = 1e-6;
/** Networks up to this many degrees of freedom use the dense solver (every mode; < 0.1 s at 300). */
export const DENSE_DOF_LIMIT = 300;
/** Lanczos block size: repeated eigenvalues up to this multiplicity (two identical chains give pairs) are all found; 3 needed fewer solves than 4 or 6 on 384 and 1,070 Cα. */
export const LANCZOS_BLOCK = 3;
/** Seed of the Lanczos start block (mulberry32): the modes are the same on every run. */
export const LANCZOS_SEED = 20010101;
/** A mode is converged when its shift-inverted residual is below this, relative to its Ritz value. */
export const LANCZOS_TOLERANCE = 1e-8;
/** The shift σ of H + σI, relative to the mean diagonal of H: positive definite, yet far below the lowest modes. */
export const SHIFT_RELATIVE = 1e-6;

/** The lowest non-trivial normal modes: eigenvalues ascending, each with its unit eigenvector (3N). */
export interface NormalModes {
  readonly eigenvalues: readonly number[];
  readonly vectors: readonly Float64Array[];
  /** How many zero (rigid-body) modes were skipped: 6 for one connected network. */
  readonly zeroModes: number;
  /** Which solver computed them. */
  readonly solver: "dense" | "lanczos";
  /** Lanczos: vectors passed through the factored (H + σI)⁻¹ (two triangular solves each); dense: 0. */
  readonly solves: number;
}

/**
 * The `count` lowest non-zero modes of the network's Hessian. Small networks: ml-matrix's dense
 * `EigenvalueDecomposition` (tred2 + tql2, every mode). Larger ones: only the modes needed, by
 * shift-invert block Lanczos (Ericsson & Ruhe, Math. Comp. 1980, 35, 1251 — what ARPACK's `eigsh(sigma=…)`
 * that ProDy can call does): H + σI factored once by an envelope Cholesky in reverse Cuthill–McKee
 * order, each Lanczos step two triangular solves, and the rigid-body motions of every connected
 * component (translations and rotations, exact zero modes of an elastic network) deflated, so the
 * Lanczos sees only the non-trivial spectrum. Eigenvalues are the Rayleigh quotients xᵀHx of the
 * converged vectors.
 */
export function computeNormalModes(
  hessian: AnmHessian,
  count: number,
  solver: "auto" | "dense" | "lanczos" = "auto",
): NormalModes {
  const dof = 3 * hessian.nodes;
  const dense = solver === "dense" || (solver === "auto" && dof <= DENSE_DOF_LIMIT);
  return dense ? denseModes(hessian, count) : lanczosModes(hessian, count);
}

function denseModes(hessian: AnmHessian, count: number): NormalModes {
  const dof = 3 * hessian.nodes;
  const matrix = denseHessian(hessian);
  const rows: Float64Array[] = [];
  for (let i = 0; i < dof; i++) rows.push(matrix.subarray(i * dof, (i + 1) * dof));
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
    solver: "dense",
    solves: 0,
  };
}

/**
 * An orthonormal basis of the network's rigid-body motions: per connected component, the three
 * translations and the three rotations about its centroid (fewer when the component is one node or a
 * line). Every spring keeps its length under them, so H maps them to zero exactly.
 */
export function rigidBodyBasis(hessian: AnmHessian): Float64Array[] {
  const dof = 3 * hessian.nodes;
  const label = networkComponents(hessian);
  const members = new Map<number, number[]>();
  label.forEach((component, node) => {
    members.set(component, [...(members.get(component) ?? []), node]);
  });
  const basis: Float64Array[] = [];
  const p = hessian.positions;
  for (const nodes of members.values()) {
    const centre = [0, 1, 2].map(
      (c) => nodes.reduce((sum, i) => sum + (p[3 * i + c] as number), 0) / nodes.length,
    );
    const motions: Float64Array[] = [];
    for (let c = 0; c < 3; c++) {
      const v = new Float64Array(dof);
      for (const i of nodes) v[3 * i + c] = 1;
      motions.push(v);
    }
    for (let axis = 0; axis < 3; axis++) {
      const v = new Float64Array(dof);
      for (const i of nodes) {
        const r = [0, 1, 2].map((c) => (p[3 * i + c] as number) - (centre[c] as number));
        // ω × r for ω the unit vector of `axis`
        const a = (axis + 1) % 3;
        const b = (axis + 2) % 3;
        v[3 * i + a] = -(r[b] as number);
        v[3 * i + b] = r[a] as number;
      }
      motions.push(v);
    }
    for (const v of motions) {
      const before = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
      for (let pass = 0; pass < 2; pass++)
        for (const u of basis) {
          let d = 0;
          for (const i of nodes)
            for (let c = 0; c < 3; c++) d += (u[3 * i + c] as number) * (v[3 * i + c] as number);
          for (const i of nodes)
            for (let c = 0; c < 3; c++)
              v[3 * i + c] = (v[3 * i + c] as number) - d * (u[3 * i + c] as number);
        }
      const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
      if (before === 0 || norm <= 1e-8 * before) continue;
      for (const i of nodes) for (let c = 0; c < 3; c++) v[3 * i + c] = (v[3 * i + c] as number) / norm;
      basis.push(v);
    }
  }
  return basis;
}

/** Each node's earliest neighbour (itself included) in the node order `position` gives (old index → new). */
function nodeEnvelope(hessian: AnmHessian, position: Int32Array): Int32Array {
  const first = new Int32Array(hessian.nodes);
  for (let i = 0; i < hessian.nodes; i++) {
    let earliest = position[i] as number;
    for (let at = hessian.rowStart[i] as number; at < (hessian.rowStart[i + 1] as number); at++)
      earliest = Math.min(earliest, position[hessian.neighbours[at] as number] as number);
    first[position[i] as number] = earliest;
  }
  return first;
}

/** The factorisation's work, Σ over rows of the envelope width squared. */
function envelopeWork(first: Int32Array): number {
  let work = 0;
  first.forEach((column, row) => {
    work += (row - column + 1) ** 2;
  });
  return work;
}

/**
 * The node order for the factor: reverse Cuthill–McKee, or the file's own order when that gives the
 * smaller envelope work (a long multi-chain assembly read chain by chain is often banded already).
 */
export function factorOrder(hessian: AnmHessian): Int32Array {
  const rcm = reverseCuthillMcKee(hessian.rowStart, hessian.neighbours);
  const inverse = new Int32Array(hessian.nodes);
  rcm.forEach((old, at) => {
    inverse[old] = at;
  });
  const identity = Int32Array.from({ length: hessian.nodes }, (_, i) => i);
  return envelopeWork(nodeEnvelope(hessian, identity)) < envelopeWork(nodeEnvelope(hessian, inverse))
    ? identity
    : rcm;
}

/** H + σI in envelope storage, rows in the given node order (3 rows per node). */
function shiftedEnvelope(hessian: AnmHessian, order: Int32Array, sigma: number) {
  const { nodes, rowStart, neighbours, offDiagonal, diagonal } = hessian;
  const position = new Int32Array(nodes);
  order.forEach((old, at) => {
    position[old] = at;
  });
  const nodeFirst = nodeEnvelope(hessian, position);
  const first = new Int32Array(3 * nodes);
  for (let a = 0; a < nodes; a++) for (let c = 0; c < 3; c++) first[3 * a + c] = 3 * (nodeFirst[a] as number);
  const matrix = envelopeMatrix(first);
  const { start, values } = matrix;
  const put = (row: number, column: number, value: number) => {
    values[(start[row] as number) + column - (first[row] as number)] = value;
  };
  for (let a = 0; a < nodes; a++) {
    const i = order[a] as number;
    for (let p = 0; p < 3; p++)
      for (let q = 0; q <= p; q++)
        put(3 * a + p, 3 * a + q, (diagonal[9 * i + 3 * p + q] as number) + (p === q ? sigma : 0));
    for (let at = rowStart[i] as number; at < (rowStart[i + 1] as number); at++) {
      const b = position[neighbours[at] as number] as number;
      if (b >= a) continue;
      for (let p = 0; p < 3; p++)
        for (let q = 0; q < 3; q++) put(3 * a + p, 3 * b + q, offDiagonal[9 * at + 3 * p + q] as number);
    }
  }
  return { matrix, position };
}

function lanczosModes(hessian: AnmHessian, count: number): NormalModes {
  const { nodes } = hessian;
  const dof = 3 * nodes;
  const rigid = rigidBodyBasis(hessian);
  let meanDiagonal = 0;
  for (let i = 0; i < nodes; i++)
    for (let c = 0; c < 3; c++) meanDiagonal += (hessian.diagonal[9 * i + 4 * c] as number) / dof;
  const sigma = Math.max(meanDiagonal, 1) * SHIFT_RELATIVE;
  const order = factorOrder(hessian);
  const { matrix, position } = shiftedEnvelope(hessian, order, sigma);
  factorEnvelope(matrix);
  const apply = (block: Float64Array, columns: number): Float64Array => {
    const permuted = new Float64Array(block.length);
    for (let i = 0; i < nodes; i++) {
      const from = 3 * i * columns;
      const to = 3 * (position[i] as number) * columns;
      for (let k = 0; k < 3 * columns; k++) permuted[to + k] = block[from + k] as number;
    }
    solveEnvelope(matrix, permuted, columns);
    const result = new Float64Array(block.length);
    for (let i = 0; i < nodes; i++) {
      const from = 3 * (position[i] as number) * columns;
      const to = 3 * i * columns;
      for (let k = 0; k < 3 * columns; k++) result[to + k] = permuted[from + k] as number;
    }
    return result;
  };
  // θ = 1/(λ + σ): the largest θ are the lowest λ; beyond the deflated rigid motions a few more zero
  // modes may remain (a loosely tied fragment), so Lanczos runs until `count` non-zero ones converged.
  const needed = (thetas: readonly number[]): number => {
    let kept = 0;
    let at = 0;
    while (kept < count && at < thetas.length) {
      if (1 / (thetas[at] as number) - sigma > ZERO_EIGENVALUE) kept++;
      at++;
    }
    return at;
  };
  const result = blockLanczos({
    dimension: dof,
    apply,
    deflation: rigid,
    blockSize: LANCZOS_BLOCK,
    seed: LANCZOS_SEED,
    tolerance: LANCZOS_TOLERANCE,
    needed,
    maxBasis: Math.max(40 * LANCZOS_BLOCK, 12 * count),
  });
  const modes = result.vectors
    .map((vector) => {
      let norm = 0;
      for (const x of vector) norm += x * x;
      const unit = vector.map((x) => x / Math.sqrt(norm));
      const image = multiplyHessian(hessian, unit);
      let rayleigh = 0;
      for (let k = 0; k < dof; k++) rayleigh += (unit[k] as number) * (image[k] as number);
      return { value: rayleigh, vector: unit };
    })
    .sort((a, b) => a.value - b.value);
  const nonZero = modes.filter((mode) => mode.value > ZERO_EIGENVALUE).slice(0, count);
  return {
    eigenvalues: nonZero.map((mode) => mode.value),
    vectors: nonZero.map((mode) => mode.vector),
    zeroModes: rigid.length + modes.filter((mode) => mode.value <= ZERO_EIGENVALUE).length,
    solver: "lanczos",
    solves: result.applications,
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
