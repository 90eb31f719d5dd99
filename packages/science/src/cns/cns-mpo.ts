import { round } from "../numeric/round.ts";

/**
 * CNS MPO (Wager, Hou, Verhoest & Villalobos, ACS Chem. Neurosci. 2010, 1, 435): six physicochemical
 * properties, each turned into a desirability in [0, 1] by a piecewise-linear function, summed to a
 * score in [0, 6]; Wager et al. found 74% of marketed CNS drugs at ≥ 4 (their Table 2 and Figure 3).
 * The breakpoints below are the paper's (its Figure 2): monotonic decreasing for ClogP, ClogD, MW, HBD
 * and pKa, a hump for TPSA.
 */
export const CNS_MPO_COMPONENTS = {
  clogp: { kind: "decreasing", oneAtOrBelow: 3, zeroAtOrAbove: 5 },
  clogd: { kind: "decreasing", oneAtOrBelow: 2, zeroAtOrAbove: 4 },
  mw: { kind: "decreasing", oneAtOrBelow: 360, zeroAtOrAbove: 500 },
  tpsa: { kind: "hump", zeroAtOrBelow: 20, oneFrom: 40, oneTo: 90, zeroAtOrAbove: 120 },
  hbd: { kind: "decreasing", oneAtOrBelow: 0.5, zeroAtOrAbove: 3.5 },
  pka: { kind: "decreasing", oneAtOrBelow: 8, zeroAtOrAbove: 10 },
} as const;

export type CnsMpoComponent = keyof typeof CNS_MPO_COMPONENTS;

/** Wager et al.'s desirable score on the six-component scale. */
export const CNS_MPO_THRESHOLD = 4;

/** One component: its value (null when it cannot be computed here, with the reason) and desirability. */
export interface MpoTerm {
  readonly value: number | null;
  readonly desirability: number | null;
  readonly reason: string | null;
}

export interface CnsMpo {
  readonly terms: Readonly<Record<CnsMpoComponent, MpoTerm>>;
  /** Sum of the desirabilities that could be computed. */
  readonly score_known: number;
  /** How many components were computed: the maximum `score_known` can reach. */
  readonly max_known: number;
  /**
   * The six-component score lies in this range: each missing component adds between 0 and 1. Equal
   * ends when all six are known.
   */
  readonly score_range: readonly [number, number];
  /** ≥ 4 on the six-component scale: true or false when the range decides it, null when it depends on what is missing. */
  readonly meets_threshold: boolean | null;
}

/** A component's desirability by Wager et al.'s piecewise-linear function. */
export function desirability(component: CnsMpoComponent, value: number): number {
  const f = CNS_MPO_COMPONENTS[component];
  if (f.kind === "decreasing") {
    if (value <= f.oneAtOrBelow) return 1;
    if (value >= f.zeroAtOrAbove) return 0;
    return (f.zeroAtOrAbove - value) / (f.zeroAtOrAbove - f.oneAtOrBelow);
  }
  if (value <= f.zeroAtOrBelow || value >= f.zeroAtOrAbove) return 0;
  if (value < f.oneFrom) return (value - f.zeroAtOrBelow) / (f.oneFrom - f.zeroAtOrBelow);
  if (value <= f.oneTo) return 1;
  return (f.zeroAtOrAbove - value) / (f.zeroAtOrAbove - f.oneTo);
}

/**
 * The MPO from the values there are: a null value (with its reason) is a missing component, never a
 * default; the score is then reported as the range the six-component score can be in.
 */
export function cnsMpo(
  values: Readonly<Record<CnsMpoComponent, { value: number | null; reason?: string }>>,
): CnsMpo {
  const terms = {} as Record<CnsMpoComponent, MpoTerm>;
  let known = 0;
  let count = 0;
  for (const component of Object.keys(CNS_MPO_COMPONENTS) as CnsMpoComponent[]) {
    const { value, reason } = values[component];
    if (value === null || !Number.isFinite(value)) {
      terms[component] = { value: null, desirability: null, reason: reason ?? "not computed" };
      continue;
    }
    const d = desirability(component, value);
    terms[component] = { value: round(value, 3), desirability: round(d, 3), reason: null };
    known += d;
    count++;
  }
  const missing = 6 - count;
  const low = round(known, 3);
  const high = round(known + missing, 3);
  return {
    terms,
    score_known: low,
    max_known: count,
    score_range: [low, high],
    meets_threshold: low >= CNS_MPO_THRESHOLD ? true : high < CNS_MPO_THRESHOLD ? false : null,
  };
}
