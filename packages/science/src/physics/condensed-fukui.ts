/**
 * Condensed Fukui functions by finite differences of atomic charges at one geometry (Yang & Mortier,
 * J. Am. Chem. Soc. 1986, 108, 5708): with q_k the partial charge of atom k for the molecule with N,
 * N + 1 and N − 1 electrons,
 *   f⁺_k = q_k(N) − q_k(N + 1)   where an added electron goes: the site a nucleophile attacks,
 *   f⁻_k = q_k(N − 1) − q_k(N)   where an electron leaves: the site an electrophile attacks,
 *   f⁰_k = (f⁺_k + f⁻_k) / 2.
 * Each sums to 1 over the atoms (one electron added or removed).
 */
export interface CondensedFukui {
  readonly fPlus: readonly number[];
  readonly fMinus: readonly number[];
  readonly fZero: readonly number[];
}

export function condensedFukui(
  neutral: readonly number[],
  anion: readonly number[],
  cation: readonly number[],
): CondensedFukui | null {
  if (anion.length !== neutral.length || cation.length !== neutral.length) return null;
  const fPlus = neutral.map((q, k) => q - (anion[k] ?? Number.NaN));
  const fMinus = neutral.map((q, k) => (cation[k] ?? Number.NaN) - q);
  return { fPlus, fMinus, fZero: fPlus.map((f, k) => (f + (fMinus[k] ?? Number.NaN)) / 2) };
}

/**
 * The global electrophilicity index ω = μ² / 2η of Parr, Szentpály & Liu (J. Am. Chem. Soc. 1999, 121,
 * 1922), with the chemical potential μ = −(IP + EA) / 2 and the hardness η = IP − EA (eV; the finite-
 * difference forms of Parr & Pearson 1983). Null when η ≤ 0 (no meaningful hardness).
 */
export function electrophilicityIndex(ipEv: number, eaEv: number): number | null {
  const hardness = ipEv - eaEv;
  if (!(hardness > 0)) return null;
  const potential = -(ipEv + eaEv) / 2;
  return (potential * potential) / (2 * hardness);
}

/** The atom with the largest value among those `keep` admits (first on ties), or null. */
export function largestAt(
  values: readonly number[],
  keep: (atom: number) => boolean,
): { readonly atom: number; readonly value: number } | null {
  let best: { atom: number; value: number } | null = null;
  values.forEach((value, atom) => {
    if (keep(atom) && Number.isFinite(value) && (best === null || value > best.value)) best = { atom, value };
  });
  return best;
}
