import type { Vec3 } from "./vec3.ts";

/**
 * The anisotropic network model's Hessian (Atilgan et al., Biophys. J. 2001, 80, 505, eq. 4–5):
 * every pair of nodes closer than `cutoff` is joined by a spring of force constant `gamma`; the
 * off-diagonal 3×3 super-element of a pair at distance d is −γ/d² · (r_ij r_ijᵀ), and each diagonal
 * super-element is minus the sum of its row's. Row-major, 3N × 3N, as ProDy's `ANM.buildHessian`.
 */
export function buildAnmHessian(nodes: readonly Vec3[], cutoff: number, gamma: number): Float64Array {
  const n = nodes.length;
  const dof = 3 * n;
  const hessian = new Float64Array(dof * dof);
  const cutoff2 = cutoff * cutoff;
  for (let i = 0; i < n; i++) {
    const a = nodes[i] as Vec3;
    for (let j = i + 1; j < n; j++) {
      const b = nodes[j] as Vec3;
      const r: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      if (d2 > cutoff2) continue;
      for (let p = 0; p < 3; p++)
        for (let q = 0; q < 3; q++) {
          const k = (-gamma * (r[p] as number) * (r[q] as number)) / d2;
          hessian[(3 * i + p) * dof + 3 * j + q] = k;
          hessian[(3 * j + p) * dof + 3 * i + q] = k;
          const ii = (3 * i + p) * dof + 3 * i + q;
          const jj = (3 * j + p) * dof + 3 * j + q;
          hessian[ii] = (hessian[ii] ?? 0) - k;
          hessian[jj] = (hessian[jj] ?? 0) - k;
        }
    }
  }
  return hessian;
}
