/**
 * The protein-ligand-benchmark series physics_binding is validated on (packages/science/data/
 * protein-ligand-benchmark/, four of the smaller receptors with no cofactor), how many ligands of
 * each are scored (spread over the measured range; the CPU of the whole validation stays a few
 * minutes), and the Spearman ρ of each score with the measured ΔG: recomputed by
 * mm-gbsa.validation.test.ts, which fails when they drift and writes the table into docs/science.md.
 */
export const MM_GBSA_VALIDATION_TARGETS = [
  { target: "tyk2", ligands: 10 },
  { target: "mcl1", ligands: 10 },
  { target: "thrombin", ligands: 10 },
  { target: "ptp1b", ligands: 10 },
] as const;

export const MM_GBSA_VALIDATION: Readonly<
  Record<string, { readonly mm_gbsa: number; readonly vina: number }>
> = {
  tyk2: { mm_gbsa: 0.7, vina: 0.95 },
  mcl1: { mm_gbsa: 0.62, vina: 0.07 },
  thrombin: { mm_gbsa: 0.56, vina: 0.07 },
  ptp1b: { mm_gbsa: 0.87, vina: 0.9 },
};
