import type { FragmentScores } from "./fragment-scores.ts";

/** What the SA score is computed from: Morgan counts and complexity counts of one molecule. */
export interface SaInputs {
  /** Unhashed radius-2 Morgan id → count (morganCounts). */
  readonly morgan: ReadonlyMap<number, number>;
  readonly heavyAtoms: number;
  readonly stereocentres: number;
  readonly spiroAtoms: number;
  readonly bridgeheadAtoms: number;
  /** The molecule has a ring (RDKit's SSSR) of more than 8 atoms. */
  readonly hasMacrocycle: boolean;
}

/** The SA score and its terms, as the paper builds it, with the RDKit Contrib refinements. */
export interface SaScore {
  /** 1 (easy) … 10 (hard to make). */
  readonly sa_score: number;
  /** Mean fragment contribution per Morgan environment (unknown fragments −4). */
  readonly fragment_score: number;
  /** Fraction of the molecule's Morgan environments (by count) found in the fragment table. */
  readonly fragments_known: number;
  readonly size_penalty: number;
  readonly stereo_penalty: number;
  readonly spiro_penalty: number;
  readonly bridgehead_penalty: number;
  readonly macrocycle_penalty: number;
  /** ln(heavy atoms / distinct Morgan ids) / 2 when positive: symmetric molecules are easier. */
  readonly symmetry_correction: number;
}

/** The score of an environment the fragment table does not hold (Ertl & Schuffenhauer 2009). */
const UNKNOWN_FRAGMENT = -4;
/** Bounds of the raw score mapped onto 1…10 (RDKit Contrib sascorer.py, 2013). */
const RAW_MIN = -4.0;
const RAW_MAX = 2.5;

/**
 * The synthetic accessibility score of Ertl & Schuffenhauer (J. Cheminform. 2009, 1, 8) with the
 * changes of its reference implementation (RDKit Contrib SA_Score, Ertl & Landrum 2013): the
 * macrocycle penalty is log10(2) whenever a ring has more than 8 atoms, and a symmetry
 * correction from the fingerprint density is added. Raw = fragment score − complexity penalty +
 * symmetry correction; then 11 − (raw − min + 1) / (max − min) × 9, smoothed above 8 and clamped
 * to 1…10.
 */
export function saScore(inputs: SaInputs, scores: FragmentScores): SaScore {
  let total = 0;
  let known = 0;
  let sum = 0;
  for (const [id, count] of inputs.morgan) {
    const score = scores.get(id);
    total += count;
    if (score !== undefined) known += count;
    sum += (score ?? UNKNOWN_FRAGMENT) * count;
  }
  const fragmentScore = sum / total;
  const atoms = inputs.heavyAtoms;
  const sizePenalty = atoms ** 1.005 - atoms;
  const stereoPenalty = Math.log10(inputs.stereocentres + 1);
  const spiroPenalty = Math.log10(inputs.spiroAtoms + 1);
  const bridgeheadPenalty = Math.log10(inputs.bridgeheadAtoms + 1);
  const macrocyclePenalty = inputs.hasMacrocycle ? Math.log10(2) : 0;
  const complexity = -sizePenalty - stereoPenalty - spiroPenalty - bridgeheadPenalty - macrocyclePenalty;
  const symmetry = atoms > inputs.morgan.size ? Math.log(atoms / inputs.morgan.size) * 0.5 : 0;
  const raw = fragmentScore + complexity + symmetry;
  let scaled = 11 - ((raw - RAW_MIN + 1) / (RAW_MAX - RAW_MIN)) * 9;
  if (scaled > 8) scaled = 8 + Math.log(scaled + 1 - 9);
  scaled = Math.min(10, Math.max(1, scaled));
  return {
    sa_score: scaled,
    fragment_score: fragmentScore,
    fragments_known: total === 0 ? 0 : known / total,
    size_penalty: sizePenalty,
    stereo_penalty: stereoPenalty,
    spiro_penalty: spiroPenalty,
    bridgehead_penalty: bridgeheadPenalty,
    macrocycle_penalty: macrocyclePenalty,
    symmetry_correction: symmetry,
  };
}
