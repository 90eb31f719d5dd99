import type { SolubilityDescriptors } from "./solubility-descriptors.ts";

/**
 * ESOL with Delaney's published coefficients (J. Chem. Inf. Comput. Sci. 2004, 44, 1000, eq. 2):
 * log S = 0.16 − 0.63 clogP − 0.0062 MW + 0.066 RB − 0.74 AP. Delaney used Daylight's clogP;
 * here it is RDKit's Crippen logP, so the values differ from the paper's (RMSE ≈ 0.5, measured in
 * the tests against the paper's own ESOL column).
 */
export function publishedEsol(d: SolubilityDescriptors): number {
  return 0.16 - 0.63 * d.clogp - 0.0062 * d.mw + 0.066 * d.rotatable_bonds - 0.74 * d.aromatic_proportion;
}

/** The four ESOL terms, the inputs of the refitted linear form. */
export const ESOL_TERMS = ["clogp", "mw", "rotatable_bonds", "aromatic_proportion"] as const;

/** SwissADME's log S classes (Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717). */
export type SolubilityClass = "insoluble" | "poorly" | "moderately" | "soluble" | "very" | "highly";

/**
 * The class of a log S (mol/L): insoluble < −10 ≤ poorly < −6 ≤ moderately < −4 ≤ soluble < −2 ≤
 * very < 0 ≤ highly, as SwissADME bins its ESOL values.
 */
export function solubilityClass(logS: number): SolubilityClass {
  if (logS < -10) return "insoluble";
  if (logS < -6) return "poorly";
  if (logS < -4) return "moderately";
  if (logS < -2) return "soluble";
  if (logS < 0) return "very";
  return "highly";
}
