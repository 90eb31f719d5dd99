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
 * The lowest log S (mol/L) of each class but `insoluble` (below them all): insoluble < −10 ≤ poorly
 * < −6 ≤ moderately < −4 ≤ soluble < −2 ≤ very < 0 ≤ highly, as SwissADME bins its ESOL values. The
 * report's solubility light and desirability read these bounds (issue 41 item 5).
 */
export const SOLUBILITY_CLASS_FLOORS = {
  poorly: -10,
  moderately: -6,
  soluble: -4,
  very: -2,
  highly: 0,
} as const;

/** The class of a log S (mol/L), by `SOLUBILITY_CLASS_FLOORS`. */
export function solubilityClass(logS: number): SolubilityClass {
  const floors = SOLUBILITY_CLASS_FLOORS;
  if (logS < floors.poorly) return "insoluble";
  if (logS < floors.moderately) return "poorly";
  if (logS < floors.soluble) return "moderately";
  if (logS < floors.very) return "soluble";
  if (logS < floors.highly) return "very";
  return "highly";
}
