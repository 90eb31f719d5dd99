import { type Fingerprint, packBits, tanimoto } from "../fingerprint/morgan.ts";
import { round } from "../numeric/round.ts";
import type { SarCompound } from "./sar-compound.ts";

/** One pair of compounds measured in the same assay, scored by SALI. */
export interface ActivityCliff {
  readonly assay_id: string;
  readonly a_id: string;
  readonly b_id: string;
  readonly a_p: number;
  readonly b_p: number;
  /** |p_a − p_b|. */
  readonly abs_delta_p: number;
  /** Tanimoto of Morgan radius-2 2,048-bit fingerprints. */
  readonly tanimoto: number;
  /** |Δp| / (1 − Tanimoto); null when the fingerprints are identical (the ratio is undefined). */
  readonly sali: number | null;
}

export interface CliffScan {
  readonly pairs_scored: number;
  /** Pairs with identical fingerprints and different activity (stereoisomers, far-apart changes). */
  readonly identical_fingerprint_pairs: readonly ActivityCliff[];
  /** The `top` pairs by SALI, highest first. */
  readonly top: readonly ActivityCliff[];
}

/**
 * Structure–activity landscape index (Guha & Van Drie, J. Chem. Inf. Model. 2008, 48, 646):
 * SALI(i, j) = |A_i − A_j| / (1 − sim(i, j)), over every pair measured in `assayId`. Keeps the
 * `top` pairs only (a bounded heap would do; a sorted array of `top` is enough at these sizes).
 */
export function activityCliffs(compounds: readonly SarCompound[], assayId: string, top: number): CliffScan {
  const measured = compounds.filter((c) => c.activities[assayId] !== undefined);
  const fps: Fingerprint[] = measured.map((c) => packBits(c.morgan_on_bits));
  const best: ActivityCliff[] = [];
  const identical: ActivityCliff[] = [];
  let scored = 0;
  let floor = -1;
  for (let i = 0; i < measured.length; i++) {
    for (let j = i + 1; j < measured.length; j++) {
      scored++;
      const a = measured[i] as SarCompound;
      const b = measured[j] as SarCompound;
      const pa = a.activities[assayId] as number;
      const pb = b.activities[assayId] as number;
      const delta = Math.abs(pa - pb);
      const sim = tanimoto(fps[i] as Fingerprint, fps[j] as Fingerprint);
      if (sim === 1) {
        if (delta > 0 && identical.length < top)
          identical.push(cliff(assayId, a, b, pa, pb, delta, sim, null));
        continue;
      }
      const sali = delta / (1 - sim);
      if (best.length >= top && sali <= floor) continue;
      best.push(cliff(assayId, a, b, pa, pb, delta, sim, sali));
      best.sort((x, y) => (y.sali ?? 0) - (x.sali ?? 0));
      if (best.length > top) best.length = top;
      floor = best.length >= top ? ((best[best.length - 1] as ActivityCliff).sali ?? 0) : -1;
    }
  }
  return {
    pairs_scored: scored,
    identical_fingerprint_pairs: identical.map(rounded),
    top: best.map(rounded),
  };
}

function cliff(
  assay: string,
  a: SarCompound,
  b: SarCompound,
  pa: number,
  pb: number,
  delta: number,
  sim: number,
  sali: number | null,
): ActivityCliff {
  return {
    assay_id: assay,
    a_id: a.candidate_id,
    b_id: b.candidate_id,
    a_p: pa,
    b_p: pb,
    abs_delta_p: delta,
    tanimoto: sim,
    sali,
  };
}

function rounded(c: ActivityCliff): ActivityCliff {
  return {
    ...c,
    abs_delta_p: round(c.abs_delta_p, 4),
    tanimoto: round(c.tanimoto, 4),
    sali: c.sali === null ? null : round(c.sali, 3),
  };
}
