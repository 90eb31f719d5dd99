import type { Fingerprint } from "../fingerprint/morgan.ts";
import { type FingerprintSet, tanimotoRow } from "../fingerprint/reference-set.ts";
import { round } from "../numeric/round.ts";
import type { IndexedDrug } from "./drugcentral-index.ts";

/** A DrugCentral drug named as evidence, with its similarity to the compound. */
export interface NeighbourDrug {
  readonly drug: string;
  readonly struct_id: number;
  readonly approvals: readonly string[];
  /** Tanimoto on Morgan radius-2, 2,048-bit fingerprints of the parents, 3 decimals. */
  readonly tanimoto: number;
}

/** A safety-panel target some of the compound's nearest drugs act on. */
export interface PredictedTarget {
  readonly gene_symbol: string;
  /** The highest similarity among the neighbours acting on it. */
  readonly max_tanimoto: number;
  /** How many drugs at or above the threshold act on it. */
  readonly supporting_drugs: number;
  /** The most similar of them (at most {@link EVIDENCE_PER_TARGET}), most similar first. */
  readonly neighbours: readonly NeighbourDrug[];
}

export interface NeighbourPrediction {
  /** Panel targets predicted (a neighbour at or above the threshold acts there), strongest first. */
  readonly targets: readonly PredictedTarget[];
  /** The most similar drugs of the index whatever the threshold (at most {@link NEAREST_SHOWN}). */
  readonly nearest: readonly NeighbourDrug[];
  readonly max_tanimoto: number;
}

export const EVIDENCE_PER_TARGET = 3;
export const NEAREST_SHOWN = 3;

/**
 * The similarity principle applied to off-targets (Keiser et al. 2007; Lounkine et al. 2012, who
 * predicted safety-panel activities of drugs from their ligand similarity): each panel target of
 * every reference drug at least `threshold` similar to the query is predicted for it, with those
 * drugs as evidence. Deterministic: ties by index order in the reference. `include` restricts the
 * reference (the validation's train part); every member when omitted.
 */
export function predictFromNeighbours(
  query: Fingerprint,
  drugs: readonly IndexedDrug[],
  set: FingerprintSet,
  threshold: number,
  include?: (index: number) => boolean,
): NeighbourPrediction {
  const row = tanimotoRow(query, set);
  const order: number[] = [];
  for (let i = 0; i < row.length; i++) if (include === undefined || include(i)) order.push(i);
  order.sort((a, b) => (row[b] ?? 0) - (row[a] ?? 0) || a - b);
  const evidence = (i: number): NeighbourDrug => {
    const drug = drugs[i] as IndexedDrug;
    return {
      drug: drug.name,
      struct_id: drug.struct_id,
      approvals: drug.approvals,
      tanimoto: round(row[i] ?? 0, 3),
    };
  };
  const byTarget = new Map<string, number[]>();
  for (const i of order) {
    if ((row[i] ?? 0) < threshold) break;
    for (const target of drugs[i]?.targets ?? []) {
      const list = byTarget.get(target) ?? [];
      list.push(i);
      byTarget.set(target, list);
    }
  }
  const targets = [...byTarget]
    .map(([gene_symbol, members]) => ({
      gene_symbol,
      max_tanimoto: round(row[members[0] ?? 0] ?? 0, 3),
      supporting_drugs: members.length,
      neighbours: members.slice(0, EVIDENCE_PER_TARGET).map(evidence),
    }))
    .sort(
      (a, b) =>
        b.max_tanimoto - a.max_tanimoto ||
        b.supporting_drugs - a.supporting_drugs ||
        (a.gene_symbol < b.gene_symbol ? -1 : 1),
    );
  const nearest = order.slice(0, NEAREST_SHOWN).map(evidence);
  return { targets, nearest, max_tanimoto: nearest[0]?.tanimoto ?? 0 };
}
