import type { Fingerprint } from "../fingerprint/morgan.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";
import { fingerprintGram } from "./linear-kernel.ts";
import { q2AndRmse, type RepeatedCv, repeatedCvPredictions } from "./ridge-cv.ts";

/**
 * The y-randomization protocol (Rücker, Rücker & Meringer, J. Chem. Inf. Model. 2007, 47, 2345):
 * the activities are permuted, the whole modelling pipeline (here: ridge on Morgan bits under the
 * same repeated cross-validation) is refitted on each permutation, and the real model must do
 * better than every scrambled one.
 */
export interface YScrambleSettings extends RepeatedCv {
  readonly scrambles: number;
  /** Seed of the permutations (scramble s uses scrambleSeed + s). */
  readonly scrambleSeed: number;
}

/**
 * Settings used by the module. λ = 1 is fixed, not tuned: on 0/1 fingerprints the Gram matrix
 * counts shared bits, so λ = 1 adds one shared bit's worth of ridge to each compound's
 * self-similarity (a drug-sized molecule sets ~40–70 of 2,048 bits); fixing it keeps the
 * scrambled fits' pipeline identical to the real one with no selection step to repeat (a λ tuned
 * on the real activities only would flatter the real model, Rücker et al. 2007 §2).
 * 5 × 5-fold as in repeated cross-validation practice; 100 scrambles give p ≥ 1/101.
 */
export const Y_SCRAMBLE_SETTINGS: YScrambleSettings = {
  folds: 5,
  repeats: 5,
  seed: 2007,
  lambda: 1,
  scrambles: 100,
  scrambleSeed: 2345,
};

export interface ModelFigures {
  /** Mean over repetitions of the cross-validated q² (Golbraikh & Tropsha 2002). */
  readonly q2: number;
  readonly q2_per_repeat: readonly number[];
  /** Mean over repetitions of the out-of-fold RMSE, in the activity's log units. */
  readonly rmse: number;
}

export interface YScrambleResult {
  readonly compounds: number;
  readonly model: ModelFigures;
  /** Each row's out-of-fold prediction, averaged over the repetitions. */
  readonly out_of_fold: readonly number[];
  readonly scrambles: {
    readonly count: number;
    readonly q2: readonly number[];
    readonly max_q2: number;
    readonly mean_q2: number;
    readonly p95_q2: number;
  };
  /** `pass` only when the real q² is above every scrambled q². */
  readonly verdict: "pass" | "fail";
  /** (1 + #scrambles with q² ≥ real) / (1 + scrambles): the permutation test's p-value. */
  readonly p_value: number;
}

/** A seeded Fisher–Yates permutation of 0…n−1. */
export function permutation(n: number, seed: number): number[] {
  const random = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  return order;
}

/** Runs the real model and every scramble under the same folds, and judges the real one. */
export function yScramble(
  fingerprints: readonly Fingerprint[],
  activities: readonly number[],
  settings: YScrambleSettings = Y_SCRAMBLE_SETTINGS,
): YScrambleResult {
  const n = fingerprints.length;
  if (activities.length !== n) throw new Error("one activity per fingerprint is needed");
  if (settings.scrambles < 1) throw new Error("at least one scramble is needed");
  const columns = 1 + settings.scrambles;
  // Column 0 is the real activities, column s the s-th permutation of them.
  const responses = new Float64Array(n * columns);
  for (let i = 0; i < n; i++) responses[i * columns] = activities[i] ?? 0;
  for (let s = 1; s < columns; s++) {
    const order = permutation(n, settings.scrambleSeed + s);
    for (let i = 0; i < n; i++) responses[i * columns + s] = activities[order[i] ?? 0] ?? 0;
  }
  const runs = repeatedCvPredictions(fingerprintGram(fingerprints), n, responses, columns, settings);
  const q2 = new Array<number>(columns).fill(0);
  const q2PerRepeat: number[] = [];
  let rmse = 0;
  const outOfFold = new Array<number>(n).fill(0);
  const observed = new Float64Array(n);
  const predicted = new Float64Array(n);
  for (const run of runs) {
    for (let c = 0; c < columns; c++) {
      for (let i = 0; i < n; i++) {
        observed[i] = responses[i * columns + c] ?? 0;
        predicted[i] = run[i * columns + c] ?? 0;
      }
      const figures = q2AndRmse(observed, predicted);
      q2[c] = (q2[c] ?? 0) + figures.q2 / runs.length;
      if (c === 0) {
        q2PerRepeat.push(figures.q2);
        rmse += figures.rmse / runs.length;
        for (let i = 0; i < n; i++) outOfFold[i] = (outOfFold[i] ?? 0) + (predicted[i] ?? 0) / runs.length;
      }
    }
  }
  const real = q2[0] ?? 0;
  const scrambled = q2.slice(1);
  const atLeastReal = scrambled.filter((v) => v >= real).length;
  return {
    compounds: n,
    model: { q2: real, q2_per_repeat: q2PerRepeat, rmse },
    out_of_fold: outOfFold,
    scrambles: {
      count: scrambled.length,
      q2: scrambled,
      max_q2: Math.max(...scrambled),
      mean_q2: scrambled.reduce((a, b) => a + b, 0) / scrambled.length,
      p95_q2: percentile(scrambled, 0.95),
    },
    verdict: atLeastReal === 0 ? "pass" : "fail",
    p_value: (1 + atLeastReal) / (1 + scrambled.length),
  };
}

/** Linear interpolation between order statistics (Hyndman & Fan 1996, type 7, numpy's default). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return (sorted[lo] ?? 0) + (h - lo) * ((sorted[hi] ?? 0) - (sorted[lo] ?? 0));
}
