/**
 * Ligand efficiency, kcal/mol per heavy atom: −ΔG / N_heavy (Hopkins, Groom & Alex, Drug Discov.
 * Today 2004, 9, 430), here with Vina's score standing in for ΔG. Rounded to 3 decimals; null when
 * there are no heavy atoms.
 */
export function ligandEfficiency(score: number, heavyAtoms: number): number | null {
  if (!(heavyAtoms > 0) || !Number.isFinite(score)) return null;
  return Math.round((-score / heavyAtoms) * 1000) / 1000;
}
