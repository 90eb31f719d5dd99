import { decodeOnBits, type Fingerprint, packBits } from "../fingerprint/morgan.ts";
import { fingerprintSet } from "../fingerprint/reference-set.ts";
import type { SplitPart } from "../numeric/random-split.ts";
import { transferTargets } from "./nearest-drug-targets.ts";

/** Neighbours lending their targets (fixed, not tuned: only the floor is chosen on valid). */
export const NEIGHBOURS = 5;
/** The cut-offs the figures are given at: the top 1, 3 and 10 targets of each drug. */
export const CUTOFFS = [1, 3, 10] as const;
/** The floor grid searched on valid. */
export const FLOOR_GRID = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7] as const;
/** Lower edges of the nearest-similarity bands the test figures are also given by. */
export const SIMILARITY_BANDS = [0, 0.3, 0.4, 0.5, 0.6] as const;
/** The floor is chosen by valid F1 of precision@k and recall@k at this k. */
export const FLOOR_CHOSEN_AT = 3;

/** What the validation reads of an index drug (drugcentral-target-index.ts's drugs have it). */
export interface SplitDrug {
  /** Its targets as positions in the index's target list. */
  readonly targets: readonly number[];
  readonly part: SplitPart;
  /** Morgan on-bits of the parent, hex (fingerprint/morgan.ts). */
  readonly bits: string;
}

/** One predictor's figures on one part at one cut-off k. */
export interface AtK {
  readonly k: number;
  /** Known (drug, target) pairs among the top-k targets said, over all pairs said (micro). */
  readonly precision: number;
  /** Known pairs found in the top k, over every known pair of the part's drugs (micro). */
  readonly recall: number;
  /** Share of the part's drugs with at least one known target in the top k. */
  readonly hit_rate: number;
  readonly pairs_said: number;
  readonly pairs_found: number;
}

export interface OfftargetValidation {
  readonly split: string;
  readonly drugs: { readonly train: number; readonly valid: number; readonly test: number };
  /** Known (drug, target) pairs of the test drugs. */
  readonly test_pairs: number;
  /** Distinct targets of the train drugs (the vocabulary the baselines draw from). */
  readonly train_targets: number;
  readonly neighbours: number;
  readonly floor_grid: readonly number[];
  /** Valid F1 at k = {@link FLOOR_CHOSEN_AT} per grid floor; the floor is the best (highest on ties). */
  readonly valid_f1: readonly number[];
  readonly floor: number;
  /** Test drugs with a train neighbour at or above the floor (the others get no target). */
  readonly test_in_domain: number;
  readonly nearest_drugs: readonly AtK[];
  readonly baselines: {
    /** The k targets most frequent among train drugs, said for every test drug. */
    readonly most_frequent: readonly (AtK & { readonly targets: readonly number[] })[];
    /** k targets drawn uniformly from the train vocabulary, said for every test drug (expected figures). */
    readonly random: readonly AtK[];
  };
  /**
   * Test drugs by the similarity of their nearest train drug: precision@{@link FLOOR_CHOSEN_AT} of
   * the transfer (at the chosen floor) beside the most-frequent targets' on the same drugs.
   */
  readonly test_by_similarity: readonly {
    readonly from: number;
    readonly to: number | null;
    readonly drugs: number;
    readonly precision: number;
    readonly most_frequent_precision: number;
  }[];
  /** The nearest drugs beat both baselines on precision, recall and hit rate at every k. */
  readonly beats_baselines: boolean;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

function atK(k: number, said: number, found: number, known: number, hits: number, drugs: number): AtK {
  return {
    k,
    precision: said === 0 ? 0 : round(found / said),
    recall: known === 0 ? 0 : round(found / known),
    hit_rate: drugs === 0 ? 0 : round(hits / drugs),
    pairs_said: round(said),
    pairs_found: round(found),
  };
}

/**
 * Held-out validation of nearest-drug target transfer on the index's own scaffold split: each
 * valid and test drug's targets are predicted from the train drugs alone; the floor is chosen on
 * valid and test is scored once at it. Pure over the index, so a test recomputes it.
 */
export function validateOfftarget(drugs: readonly SplitDrug[], split: string): OfftargetValidation {
  const fingerprints = drugs.map((drug) => packBits(decodeOnBits(drug.bits)));
  const set = fingerprintSet(fingerprints);
  const targetsOf = drugs.map((drug) => drug.targets);
  const members = (part: SplitPart) => drugs.flatMap((drug, i) => (drug.part === part ? [i] : []));
  const train = members("train");
  const valid = members("valid");
  const test = members("test");
  const isTrain = (i: number) => drugs[i]?.part === "train";
  // Ranked predictions per drug at a floor (top max-k targets); [] when out of domain.
  const nearestOf = new Map<number, number>();
  const rankedAt = (part: readonly number[], floor: number) =>
    part.map((i) => {
      const transfer = transferTargets(fingerprints[i] as Fingerprint, targetsOf, set, {
        floor,
        neighbours: NEIGHBOURS,
        include: isTrain,
      });
      nearestOf.set(i, transfer.nearest?.tanimoto ?? 0);
      return transfer.targets.slice(0, Math.max(...CUTOFFS)).map((t) => t.target);
    });
  const score = (part: readonly number[], ranked: readonly (readonly number[])[], k: number) => {
    let said = 0;
    let found = 0;
    let known = 0;
    let hits = 0;
    part.forEach((i, at) => {
      const truth = new Set(targetsOf[i]);
      const top = (ranked[at] ?? []).slice(0, k);
      const n = top.filter((t) => truth.has(t)).length;
      said += top.length;
      found += n;
      known += truth.size;
      if (n > 0) hits++;
    });
    return atK(k, said, found, known, hits, part.length);
  };
  const f1 = (s: AtK) =>
    s.precision + s.recall === 0 ? 0 : (2 * s.precision * s.recall) / (s.precision + s.recall);
  const validF1 = FLOOR_GRID.map((floor) => round(f1(score(valid, rankedAt(valid, floor), FLOOR_CHOSEN_AT))));
  let chosen = 0;
  validF1.forEach((value, at) => {
    if (value >= (validF1[chosen] ?? 0)) chosen = at;
  });
  const floor = FLOOR_GRID[chosen] as number;
  const testRanked = rankedAt(test, floor);
  const nearestDrugs = CUTOFFS.map((k) => score(test, testRanked, k));
  // Baselines from train's target frequencies (ties by target position).
  const frequency = new Map<number, number>();
  for (const i of train) for (const t of targetsOf[i] ?? []) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const ranked = [...frequency].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([t]) => t);
  const mostFrequent = CUTOFFS.map((k) => ({
    ...score(
      test,
      test.map(() => ranked.slice(0, k)),
      k,
    ),
    targets: ranked.slice(0, k),
  }));
  // Random: k distinct targets drawn uniformly from the V train targets. A drug with m of its
  // targets in V expects k·m/V found and is missed with probability C(V−m, k)/C(V, k).
  const vocabulary = frequency.size;
  const random = CUTOFFS.map((k) => {
    let found = 0;
    let known = 0;
    let hits = 0;
    for (const i of test) {
      const truth = targetsOf[i] ?? [];
      const m = truth.filter((t) => frequency.has(t)).length;
      known += truth.length;
      found += (k * m) / vocabulary;
      let miss = 1;
      for (let j = 0; j < k; j++) miss *= Math.max(0, vocabulary - m - j) / (vocabulary - j);
      hits += 1 - miss;
    }
    return atK(k, k * test.length, found, known, hits, test.length);
  });
  const k = FLOOR_CHOSEN_AT;
  const testBySimilarity = SIMILARITY_BANDS.map((from, at) => {
    const to = SIMILARITY_BANDS[at + 1] ?? null;
    const inBand = test.flatMap((i, row) => {
      const s = nearestOf.get(i) ?? 0;
      return s >= from && (to === null || s < to) ? [row] : [];
    });
    const drugsInBand = inBand.map((row) => test[row] as number);
    return {
      from,
      to,
      drugs: inBand.length,
      precision: score(
        drugsInBand,
        inBand.map((row) => testRanked[row] ?? []),
        k,
      ).precision,
      most_frequent_precision: score(
        drugsInBand,
        inBand.map(() => ranked.slice(0, k)),
        k,
      ).precision,
    };
  });
  const beats = nearestDrugs.every((s, at) =>
    [mostFrequent[at] as AtK, random[at] as AtK].every(
      (b) => s.precision > b.precision && s.recall > b.recall && s.hit_rate > b.hit_rate,
    ),
  );
  return {
    split,
    drugs: { train: train.length, valid: valid.length, test: test.length },
    test_pairs: test.reduce((sum, i) => sum + (targetsOf[i]?.length ?? 0), 0),
    train_targets: vocabulary,
    neighbours: NEIGHBOURS,
    floor_grid: [...FLOOR_GRID],
    valid_f1: validF1,
    floor,
    test_in_domain: testRanked.filter((r) => r.length > 0).length,
    nearest_drugs: nearestDrugs,
    baselines: { most_frequent: mostFrequent, random },
    test_by_similarity: testBySimilarity,
    beats_baselines: beats,
  };
}
