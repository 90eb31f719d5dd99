import { mulberry32 } from "../numeric/seeded-shuffle.ts";

/**
 * The split-conformal half-width for a coverage level: the ⌈(n + 1)·level⌉-th smallest absolute
 * calibration residual (Papadopoulos et al., ECML 2002; Lei et al., JASA 2018, 113, 1094, §2.2).
 * Infinite when the calibration set is too small for the level.
 */
export function conformalHalfWidth(residuals: readonly number[], level: number): number {
  const sorted = residuals.map(Math.abs).sort((a, b) => a - b);
  const k = Math.ceil((sorted.length + 1) * level);
  return k > sorted.length ? Number.POSITIVE_INFINITY : (sorted[k - 1] ?? Number.POSITIVE_INFINITY);
}

export type Fit = (rows: number[][], y: number[]) => (row: readonly number[]) => number;

/** Rows' indices split into a proper-training part and a calibration part by a seeded shuffle. */
export function properCalibrationSplit(
  indices: readonly number[],
  calibrationFraction: number,
  seed: number,
) {
  const random = mulberry32(seed);
  const order = [...indices];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const cut = Math.round(order.length * (1 - calibrationFraction));
  return { proper: order.slice(0, cut), calibration: order.slice(cut) };
}

export interface CoverageResult {
  readonly level: number;
  /** Share of held-out rows whose measured value fell inside their interval. */
  readonly coverage: number;
  readonly mean_half_width: number;
  readonly held_out: number;
}

/**
 * Empirical coverage of split-conformal intervals on held-out folds: for each outer fold, the
 * other rows are split into proper training and calibration, the model is fitted on the proper
 * part, the half-width read from the calibration residuals, and the fold's rows are predicted.
 */
export function splitConformalCoverage(
  rows: readonly number[][],
  y: readonly number[],
  folds: readonly number[],
  fit: Fit,
  levels: readonly number[],
  calibrationFraction: number,
  seed: number,
): CoverageResult[] {
  return heldOutCoverage(rows, y, folds, levels, (pool, f) => {
    const { proper, calibration } = properCalibrationSplit(pool, calibrationFraction, seed + f);
    const predict = fit(
      proper.map((i) => rows[i] ?? []),
      proper.map((i) => y[i] ?? 0),
    );
    const residuals = calibration.map((i) => (y[i] ?? 0) - predict(rows[i] ?? []));
    return { predict, halfWidths: levels.map((level) => conformalHalfWidth(residuals, level)) };
  });
}

/**
 * The same coverage check for the intervals this build reports on the solubility model: the
 * half-width is read from out-of-fold residuals of an inner cross-validation of the pool (each
 * residual from a model that did not see the row; cross-conformal, Vovk, Ann. Math. Artif.
 * Intell. 2015, 74, 9) and the interval is put around a model fitted on the whole pool.
 */
export function crossConformalCoverage(
  rows: readonly number[][],
  y: readonly number[],
  folds: readonly number[],
  innerFolds: (n: number, fold: number) => number[],
  fit: Fit,
  levels: readonly number[],
): CoverageResult[] {
  return heldOutCoverage(rows, y, folds, levels, (pool, f) => {
    const residuals = outOfFoldResiduals(
      pool.map((i) => rows[i] ?? []),
      pool.map((i) => y[i] ?? 0),
      innerFolds(pool.length, f),
      fit,
    );
    const halfWidths = levels.map((level) => conformalHalfWidth(residuals, level));
    const predict = fit(
      pool.map((i) => rows[i] ?? []),
      pool.map((i) => y[i] ?? 0),
    );
    return { predict, halfWidths };
  });
}

/**
 * The outer loop both coverage checks share: for each fold, `intervalFor` builds a predictor and
 * one half-width per level from the other folds' rows (`pool`), and the fold's rows are scored:
 * covered when |y − ŷ| ≤ the half-width.
 */
function heldOutCoverage(
  rows: readonly number[][],
  y: readonly number[],
  folds: readonly number[],
  levels: readonly number[],
  intervalFor: (
    pool: number[],
    fold: number,
  ) => { predict: (row: readonly number[]) => number; halfWidths: number[] },
): CoverageResult[] {
  const k = Math.max(...folds) + 1;
  const hits = levels.map(() => 0);
  const widths = levels.map(() => 0);
  let heldOut = 0;
  for (let f = 0; f < k; f++) {
    const pool = folds.flatMap((fold, i) => (fold === f ? [] : [i]));
    const { predict, halfWidths } = intervalFor(pool, f);
    folds.forEach((fold, i) => {
      if (fold !== f) return;
      heldOut++;
      const error = Math.abs((y[i] ?? 0) - predict(rows[i] ?? []));
      halfWidths.forEach((h, l) => {
        if (error <= h) hits[l] = (hits[l] ?? 0) + 1;
        widths[l] = (widths[l] ?? 0) + h;
      });
    });
  }
  return levels.map((level, l) => ({
    level,
    coverage: (hits[l] ?? 0) / heldOut,
    mean_half_width: (widths[l] ?? 0) / heldOut,
    held_out: heldOut,
  }));
}

/** Residuals y − ŷ where each ŷ comes from a model fitted without the row's fold. */
export function outOfFoldResiduals(
  rows: readonly number[][],
  y: readonly number[],
  folds: readonly number[],
  fit: Fit,
): number[] {
  const residuals = new Array<number>(rows.length).fill(Number.NaN);
  const k = Math.max(...folds) + 1;
  for (let f = 0; f < k; f++) {
    const train = folds.flatMap((fold, i) => (fold === f ? [] : [i]));
    const predict = fit(
      train.map((i) => rows[i] ?? []),
      train.map((i) => y[i] ?? 0),
    );
    folds.forEach((fold, i) => {
      if (fold === f) residuals[i] = (y[i] ?? 0) - predict(rows[i] ?? []);
    });
  }
  return residuals;
}
