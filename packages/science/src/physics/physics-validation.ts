/**
 * The physics audit on the crystal ligands of the shared complexes (packages/science/data/complexes),
 * standard search: recomputed by physics-validation.validation.test.ts, which fails when these drift and writes
 * the per-ligand table into docs/science.md.
 */
export const PHYSICS_VALIDATION = {
  ligands: 9,
  strain_median: 1.43,
  strain_min: 0,
  strain_max: 6.76,
  strain_spearman: 0.53,
  /** Ligands whose PM7 strain is below zero: PM7 puts GFN2's global minimum above the local one. */
  pm7_negative: 4,
  gap_spearman: 0.83,
} as const;
