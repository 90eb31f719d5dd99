import type { Fingerprint } from "../fingerprint/morgan.ts";
import { type FingerprintSet, tanimotoRow } from "../fingerprint/reference-set.ts";

/** A drug of the reference among the query's nearest, by its position in the reference. */
export interface NearDrug {
  readonly index: number;
  readonly tanimoto: number;
}

/** A target some of the query's nearest drugs carry, by its position in the index's target list. */
export interface TransferredTargetScore {
  readonly target: number;
  /** The rule's score: the highest Tanimoto among the nearest drugs carrying the target. */
  readonly score: number;
  /** How many of the nearest drugs carry it (the first tie-break). */
  readonly support: number;
  /** Those drugs, most similar first. */
  readonly drugs: readonly NearDrug[];
}

export interface TargetTransfer {
  /** The `neighbours` most similar drugs at or above the floor, most similar first. */
  readonly neighbours: readonly NearDrug[];
  /** Every target they carry, ranked: score, then support, then target position. */
  readonly targets: readonly TransferredTargetScore[];
  /** The most similar drug of the reference whatever the floor (null: empty reference). */
  readonly nearest: NearDrug | null;
}

/**
 * Nearest-neighbour target transfer, the similarity principle (Johnson & Maggiora 1990) applied as
 * Nidhi et al. 2006 and Lounkine et al. 2012 did: the `neighbours` reference drugs most similar to
 * the query with Tanimoto ≥ `floor` lend it their targets, each target scored by the similarity of
 * the most similar of them carrying it. No neighbour at the floor: no target (out of domain).
 * Deterministic: similarity ties by reference order. `include` restricts the reference (the
 * validation's train part).
 */
export function transferTargets(
  query: Fingerprint,
  drugTargets: readonly (readonly number[])[],
  set: FingerprintSet,
  options: {
    readonly floor: number;
    readonly neighbours: number;
    readonly include?: (index: number) => boolean;
  },
): TargetTransfer {
  const row = tanimotoRow(query, set);
  const { floor, neighbours: k, include } = options;
  // Top k by insertion into a short sorted list: O(N·k), no sort of the whole reference.
  const best: NearDrug[] = [];
  let nearest: NearDrug | null = null;
  for (let index = 0; index < row.length; index++) {
    if (include !== undefined && !include(index)) continue;
    const tanimoto = row[index] as number;
    if (nearest === null || tanimoto > nearest.tanimoto) nearest = { index, tanimoto };
    if (tanimoto < floor) continue;
    if (best.length === k && tanimoto <= (best[k - 1] as NearDrug).tanimoto) continue;
    let at = best.findIndex((n) => tanimoto > n.tanimoto);
    if (at === -1) at = best.length;
    best.splice(at, 0, { index, tanimoto });
    if (best.length > k) best.pop();
  }
  const byTarget = new Map<number, NearDrug[]>();
  for (const drug of best)
    for (const target of drugTargets[drug.index] ?? []) {
      const carriers = byTarget.get(target);
      if (carriers === undefined) byTarget.set(target, [drug]);
      else carriers.push(drug);
    }
  const targets = [...byTarget]
    .map(([target, drugs]) => ({
      target,
      score: (drugs[0] as NearDrug).tanimoto,
      support: drugs.length,
      drugs,
    }))
    .sort((a, b) => b.score - a.score || b.support - a.support || a.target - b.target);
  return { neighbours: best, targets, nearest };
}
