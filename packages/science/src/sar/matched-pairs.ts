import { round } from "../numeric/round.ts";
import type { SarCompound } from "./sar-compound.ts";

/** A matched molecular pair in one assay: the same context, one variable part swapped for another. */
export interface MatchedPair {
  readonly assay_id: string;
  readonly from_id: string;
  readonly to_id: string;
  /** The constant part both share ([*:1] marks the cut). */
  readonly context: string;
  /** The transformation, variable of `from` >> variable of `to`. */
  readonly transformation: string;
  readonly from_p: number;
  readonly to_p: number;
  /** to_p − from_p: positive when the change gains activity. */
  readonly delta_p: number;
}

export interface TransformationStats {
  readonly assay_id: string;
  readonly transformation: string;
  readonly pairs: number;
  readonly mean_delta_p: number;
  readonly min_delta_p: number;
  readonly max_delta_p: number;
}

/**
 * Distinct pairs held per assay: a library of thousands of variants at one position would
 * otherwise hold millions; beyond it, new pairs are not added (the output says so).
 */
export const MAX_PAIRS = 200_000;

/**
 * Matched molecular pairs (Hussain & Rea, J. Chem. Inf. Model. 2010, 50, 339) from single cuts:
 * compounds are indexed by each cut's constant part; two compounds sharing a constant part with
 * different variable parts form a pair. When a pair shares several constant parts, the largest
 * (most heavy atoms; then the SMILES, for determinism) is kept, so each pair is one
 * transformation, the smallest change that relates them. Pairs are oriented from the compound
 * earlier in the portfolio to the later one.
 */
export function matchedPairs(
  compounds: readonly SarCompound[],
  assayId: string,
  maxPairs = MAX_PAIRS,
): { pairs: MatchedPair[]; truncated: boolean } {
  const measured = compounds.filter((c) => c.activities[assayId] !== undefined);
  const byContext = new Map<string, { at: number; variable: string; heavy: number }[]>();
  measured.forEach((compound, at) => {
    for (const cut of compound.cuts) {
      const list = byContext.get(cut.context) ?? [];
      list.push({ at, variable: cut.variable, heavy: cut.context_heavy_atoms });
      byContext.set(cut.context, list);
    }
  });
  const best = new Map<
    string,
    { context: string; heavy: number; from: string; to: string; a: number; b: number }
  >();
  let truncated = false;
  for (const [context, members] of byContext) {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const x = members[i] as (typeof members)[number];
        const y = members[j] as (typeof members)[number];
        if (x.at === y.at || x.variable === y.variable) continue;
        const [first, second] = x.at < y.at ? [x, y] : [y, x];
        const key = `${first.at}:${second.at}`;
        const held = best.get(key);
        if (held === undefined && best.size >= maxPairs) {
          truncated = true;
          continue;
        }
        if (held === undefined || x.heavy > held.heavy || (x.heavy === held.heavy && context < held.context))
          best.set(key, {
            context,
            heavy: x.heavy,
            from: first.variable,
            to: second.variable,
            a: first.at,
            b: second.at,
          });
      }
    }
  }
  const pairs: MatchedPair[] = [];
  for (const pair of best.values()) {
    const from = measured[pair.a] as SarCompound;
    const to = measured[pair.b] as SarCompound;
    const fromP = from.activities[assayId] as number;
    const toP = to.activities[assayId] as number;
    pairs.push({
      assay_id: assayId,
      from_id: from.candidate_id,
      to_id: to.candidate_id,
      context: pair.context,
      transformation: `${pair.from}>>${pair.to}`,
      from_p: fromP,
      to_p: toP,
      delta_p: round(toP - fromP, 4),
    });
  }
  // Largest activity change first; ties in portfolio order.
  pairs.sort(
    (p, q) =>
      Math.abs(q.delta_p) - Math.abs(p.delta_p) ||
      p.from_id.localeCompare(q.from_id) ||
      p.to_id.localeCompare(q.to_id),
  );
  return { pairs, truncated };
}

/**
 * Transformations seen in more than one pair, direction normalised (A>>B and B>>A counted
 * together, Δ signed for A>>B with A the lexically smaller side): what a change tends to do.
 */
export function transformationStats(pairs: readonly MatchedPair[]): TransformationStats[] {
  const groups = new Map<string, { assay: string; transformation: string; deltas: number[] }>();
  for (const pair of pairs) {
    const [a = "", b = ""] = pair.transformation.split(">>");
    const forward = a <= b;
    const transformation = forward ? pair.transformation : `${b}>>${a}`;
    const key = `${pair.assay_id}\u0000${transformation}`;
    const group = groups.get(key) ?? { assay: pair.assay_id, transformation, deltas: [] };
    group.deltas.push(forward ? pair.delta_p : -pair.delta_p);
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((group) => group.deltas.length > 1)
    .map((group) => ({
      assay_id: group.assay,
      transformation: group.transformation,
      pairs: group.deltas.length,
      mean_delta_p: round(group.deltas.reduce((s, d) => s + d, 0) / group.deltas.length, 3),
      min_delta_p: round(Math.min(...group.deltas), 3),
      max_delta_p: round(Math.max(...group.deltas), 3),
    }))
    .sort((x, y) => y.pairs - x.pairs || x.transformation.localeCompare(y.transformation));
}
