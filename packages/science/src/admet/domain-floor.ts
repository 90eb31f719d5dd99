import { rocAuc } from "../fingerprint/roc-auc.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";
import type { TdcTask } from "./tdc-datasets.ts";

/**
 * Domains that mean something (issue 36 item 5). The old limit, the training compounds' own
 * 5th-percentile leave-one-out nearest-neighbour Tanimoto, sits at the similarity of random pairs
 * on the small sets (≈0.19–0.20 on Morgan-2 for hERG, DILI, half-life): nearly everything was "in
 * domain". Here the floor is read from where the model's error rises on its scaffold-held-out test
 * compounds (Sheridan et al., J. Chem. Inf. Comput. Sci. 2004, 44, 1912: error grows as similarity to
 * the training set falls), and never below the similarity of random training pairs.
 *
 * The rule, once:
 * 1. The figure: AUROC for a classifier, MAE for a regressor; the in-domain figure is the model's
 *    figure on all its scaffold-test compounds (the one its card states).
 * 2. Test compounds binned by their nearest-training-neighbour Tanimoto at DOMAIN_BIN_EDGES; a bin
 *    with fewer than DOMAIN_MIN_BIN compounds (classifiers: or fewer than DOMAIN_MIN_CLASS of either
 *    label) is merged into the bin above it (thin bins at the top, into the highest bin formed).
 * 3. Going down from the most similar bin, a bin holds while its figure is within the margin of the
 *    in-domain figure (AUROC at least DOMAIN_AUROC_MARGIN below it, MAE at most DOMAIN_MAE_MARGIN
 *    above it, relative); the error floor is the lower edge of the last bin of that run (0 when every
 *    bin holds).
 * 4. The floor is the larger of the error floor and the DOMAIN_RANDOM_PERCENTILE-th percentile of the
 *    Tanimoto of random training pairs (DOMAIN_RANDOM_PAIRS pairs drawn with mulberry32(DOMAIN_SEED)).
 * Per-bin AUROC on 20–40 compounds has a standard error near 0.05–0.1, so the small sets' floors are
 * coarse: the table is shown beside each floor so a reader can judge it.
 */
export const DOMAIN_BIN_EDGES = [0, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 1] as const;
export const DOMAIN_MIN_BIN = 20;
export const DOMAIN_MIN_CLASS = 5;
export const DOMAIN_AUROC_MARGIN = 0.05;
export const DOMAIN_MAE_MARGIN = 0.2;
export const DOMAIN_RANDOM_PAIRS = 20000;
export const DOMAIN_RANDOM_PERCENTILE = 95;
export const DOMAIN_SEED = 20240419;

export const DOMAIN_FLOOR_RULE =
  "in domain when the nearest training Tanimoto (Morgan r2) ≥ the floor: the lowest bin edge down to which every " +
  `bin of scaffold-test compounds keeps AUROC within ${DOMAIN_AUROC_MARGIN} of the model's test AUROC (regressors: MAE within ` +
  `${Math.round(DOMAIN_MAE_MARGIN * 100)}% of its test MAE); bins ${DOMAIN_BIN_EDGES.join(", ")}, fewer than ${DOMAIN_MIN_BIN} ` +
  `compounds (or ${DOMAIN_MIN_CLASS} of a label) merged upward; never below the ${DOMAIN_RANDOM_PERCENTILE}th percentile of ` +
  "random training-pair Tanimoto";

/** One scored test compound: its nearest training similarity, the model's output and the label. */
export interface ScoredTestCompound {
  readonly similarity: number;
  /** Probability (classifier) or value (regressor). */
  readonly predicted: number;
  /** The label: 0/1 (classifier) or the value (regressor). */
  readonly observed: number;
}

export interface DomainBin {
  readonly from: number;
  readonly to: number;
  readonly compounds: number;
  /** Classifiers only: compounds labelled positive. */
  readonly positives: number | null;
  /** AUROC (classifier) or MAE (regressor) on the bin's compounds. */
  readonly figure: number;
  /** Whether the bin's figure is within the margin of the in-domain figure. */
  readonly within_margin: boolean;
}

export interface DomainFloor {
  readonly metric: "auroc" | "mae";
  readonly bins: readonly DomainBin[];
  /** The model's figure on all its scaffold-test compounds. */
  readonly in_domain_figure: number;
  readonly error_floor: number;
  readonly random_pair_p95: number;
  /** max(error_floor, random_pair_p95): the model's domain limit. */
  readonly min_tanimoto: number;
}

const r4 = (v: number) => Math.round(v * 10000) / 10000;

function figureOf(task: TdcTask, members: readonly ScoredTestCompound[]): number {
  if (task === "classification")
    return rocAuc(
      members.map((c) => c.predicted),
      members.map((c) => (c.observed >= 0.5 ? 1 : 0) as 0 | 1),
    );
  return members.reduce((s, c) => s + Math.abs(c.predicted - c.observed), 0) / members.length;
}

function bigEnough(task: TdcTask, members: readonly ScoredTestCompound[]): boolean {
  if (members.length < DOMAIN_MIN_BIN) return false;
  if (task !== "classification") return true;
  const positives = members.filter((c) => c.observed >= 0.5).length;
  return positives >= DOMAIN_MIN_CLASS && members.length - positives >= DOMAIN_MIN_CLASS;
}

interface RawBin {
  readonly from: number;
  readonly to: number;
  readonly members: readonly ScoredTestCompound[];
}

/**
 * The bins from the top down. A thin bin is merged into the bin above it (that bin's lower edge
 * extends down), so a gap in the data never lifts the floor; thin bins left at the top join the
 * highest bin formed.
 */
function mergedBins(task: TdcTask, test: readonly ScoredTestCompound[]): RawBin[] {
  const merged: RawBin[] = [];
  let pending: RawBin | null = null;
  for (let b = 0; b < DOMAIN_BIN_EDGES.length - 1; b++) {
    const from = DOMAIN_BIN_EDGES[b] ?? 0;
    const to = DOMAIN_BIN_EDGES[b + 1] ?? 1;
    const last = b === DOMAIN_BIN_EDGES.length - 2;
    const members = test.filter((c) => c.similarity >= from && (last || c.similarity < to));
    const current: RawBin =
      pending === null
        ? { from, to, members }
        : { from: pending.from, to, members: [...pending.members, ...members] };
    if (bigEnough(task, current.members)) {
      merged.push(current);
      pending = null;
    } else pending = current;
  }
  if (pending !== null && pending.members.length > 0) {
    const highest = merged.pop();
    merged.push(
      highest === undefined
        ? pending
        : { from: highest.from, to: pending.to, members: [...highest.members, ...pending.members] },
    );
  }
  return merged.reverse();
}

/** The error-vs-similarity table of a model's test compounds and the floor it gives (the rule above). */
export function domainFloor(
  task: TdcTask,
  test: readonly ScoredTestCompound[],
  randomPairP95: number,
): DomainFloor {
  const reference = figureOf(task, test);
  const holds = (figure: number) =>
    task === "classification"
      ? figure >= reference - DOMAIN_AUROC_MARGIN
      : figure <= reference * (1 + DOMAIN_MAE_MARGIN);
  let holding = true;
  let errorFloor = 0;
  const bins: DomainBin[] = mergedBins(task, test).map((bin) => {
    const figure = figureOf(task, bin.members);
    const within = holds(figure);
    if (holding && within) errorFloor = bin.from;
    else holding = false;
    return {
      from: bin.from,
      to: bin.to,
      compounds: bin.members.length,
      positives: task === "classification" ? bin.members.filter((c) => c.observed >= 0.5).length : null,
      figure: r4(figure),
      within_margin: within,
    };
  });
  // A run broken at the top bin leaves the floor at that bin's upper edge: nothing holds below it.
  if (bins[0] !== undefined && !bins[0].within_margin) errorFloor = bins[0].to;
  return {
    metric: task === "classification" ? "auroc" : "mae",
    bins: bins.reverse(),
    in_domain_figure: r4(reference),
    error_floor: errorFloor,
    random_pair_p95: r4(randomPairP95),
    min_tanimoto: r4(Math.max(errorFloor, randomPairP95)),
  };
}

/**
 * The DOMAIN_RANDOM_PERCENTILE-th percentile of the Tanimoto of random pairs of distinct training
 * compounds (seeded): the similarity any two unrelated compounds of the set reach, the floor's floor.
 */
export function randomPairPercentile(count: number, similarity: (i: number, j: number) => number): number {
  const random = mulberry32(DOMAIN_SEED);
  const values: number[] = [];
  while (values.length < DOMAIN_RANDOM_PAIRS) {
    const i = Math.floor(random() * count);
    const j = Math.floor(random() * count);
    if (i !== j) values.push(similarity(i, j));
  }
  values.sort((a, b) => a - b);
  return values[Math.ceil((DOMAIN_RANDOM_PERCENTILE / 100) * values.length) - 1] ?? 0;
}
