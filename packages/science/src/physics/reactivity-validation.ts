/**
 * The reactivity descriptors against published references: recomputed by
 * ligand-reactivity.validation.test.ts, which fails when these drift and writes its tables into
 * docs/science.md. IP: xtb --vipea on the GFN2 (ALPB water) local minimum of an ETKDG geometry, against
 * the NIST Chemistry WebBook's evaluated gas-phase ionization energies (data/nist-ionization-energies.csv).
 */
export const REACTIVITY_VALIDATION = {
  molecules: 28,
  ip_mae_ev: 0.339,
  ip_mean_signed_ev: 0.072,
  ip_pearson: 0.936,
} as const;
