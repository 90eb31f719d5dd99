import { solveSpd } from "../numeric/cholesky.ts";

/** Column means and standard deviations (population), 1 where a column is constant. */
export function standardization(rows: readonly number[][]): { mean: number[]; scale: number[] } {
  const width = rows[0]?.length ?? 0;
  const mean = new Array<number>(width).fill(0);
  const scale = new Array<number>(width).fill(0);
  for (const row of rows) {
    for (let j = 0; j < width; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / rows.length;
  }
  for (const row of rows) {
    for (let j = 0; j < width; j++)
      scale[j] = (scale[j] ?? 0) + ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2 / rows.length;
  }
  return { mean, scale: scale.map((s) => (s > 0 ? Math.sqrt(s) : 1)) };
}

export function standardize(row: readonly number[], s: { mean: number[]; scale: number[] }): number[] {
  return row.map((v, j) => (v - (s.mean[j] ?? 0)) / (s.scale[j] ?? 1));
}

/** Ordinary least squares with an intercept: returns [intercept, ...coefficients]. */
export function fitLinear(rows: readonly number[][], y: readonly number[]): number[] {
  const width = (rows[0]?.length ?? 0) + 1;
  const ata = new Float64Array(width * width);
  const aty = new Float64Array(width);
  for (let r = 0; r < rows.length; r++) {
    const x = [1, ...(rows[r] ?? [])];
    for (let i = 0; i < width; i++) {
      aty[i] = (aty[i] ?? 0) + (x[i] ?? 0) * (y[r] ?? 0);
      for (let j = 0; j < width; j++)
        ata[i * width + j] = (ata[i * width + j] ?? 0) + (x[i] ?? 0) * (x[j] ?? 0);
    }
  }
  return [...solveSpd(ata, width, aty)];
}

export function predictLinear(weights: readonly number[], row: readonly number[]): number {
  return row.reduce((sum, v, j) => sum + v * (weights[j + 1] ?? 0), weights[0] ?? 0);
}

/** A kernel ridge regression with a Gaussian (RBF) kernel on standardized rows. */
export interface KernelModel {
  readonly gamma: number;
  readonly lambda: number;
  readonly mean: number[];
  readonly scale: number[];
  readonly yMean: number;
  /** Standardized training rows. */
  readonly train: number[][];
  readonly alpha: number[];
}

function squaredDistance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += ((a[j] ?? 0) - (b[j] ?? 0)) ** 2;
  return sum;
}

/** Fits α = (K + λI)⁻¹ (y − ȳ) with K_ij = exp(−γ ‖xᵢ − xⱼ‖²) (Saunders, Gammerman & Vovk 1998). */
export function fitKernel(
  rows: readonly number[][],
  y: readonly number[],
  gamma: number,
  lambda: number,
): KernelModel {
  const s = standardization(rows);
  const train = rows.map((row) => standardize(row, s));
  const n = train.length;
  const yMean = y.reduce((a, b) => a + b, 0) / n;
  const k = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = Math.exp(-gamma * squaredDistance(train[i] ?? [], train[j] ?? []));
      k[i * n + j] = v;
      k[j * n + i] = v;
    }
    k[i * n + i] = (k[i * n + i] ?? 0) + lambda;
  }
  const alpha = solveSpd(
    k,
    n,
    Float64Array.from(y, (v) => v - yMean),
  );
  return { gamma, lambda, mean: s.mean, scale: s.scale, yMean, train, alpha: [...alpha] };
}

/** The prediction and the distance (standardized units) to the nearest training row. */
export function predictKernel(
  model: KernelModel,
  row: readonly number[],
): { value: number; nearest: number } {
  const x = standardize(row, model);
  let value = model.yMean;
  let nearest = Number.POSITIVE_INFINITY;
  model.train.forEach((t, i) => {
    const d2 = squaredDistance(x, t);
    if (d2 < nearest) nearest = d2;
    value += (model.alpha[i] ?? 0) * Math.exp(-model.gamma * d2);
  });
  return { value, nearest: Math.sqrt(nearest) };
}

export function rmse(predicted: readonly number[], observed: readonly number[]): number {
  return Math.sqrt(
    predicted.reduce((sum, p, i) => sum + (p - (observed[i] ?? 0)) ** 2, 0) / predicted.length,
  );
}

/** Mean absolute error of `predicted` against `observed`. */
export function meanAbsoluteError(predicted: readonly number[], observed: readonly number[]): number {
  let sum = 0;
  predicted.forEach((p, i) => {
    sum += Math.abs(p - (observed[i] ?? 0));
  });
  return sum / predicted.length;
}

export function rSquared(predicted: readonly number[], observed: readonly number[]): number {
  const mean = observed.reduce((a, b) => a + b, 0) / observed.length;
  const total = observed.reduce((sum, o) => sum + (o - mean) ** 2, 0);
  const residual = predicted.reduce((sum, p, i) => sum + (p - (observed[i] ?? 0)) ** 2, 0);
  return 1 - residual / total;
}

/** Out-of-fold predictions: each row predicted by a model fitted without its fold. */
export function crossValidate(
  rows: readonly number[][],
  y: readonly number[],
  folds: readonly number[],
  fit: (rows: number[][], y: number[]) => (row: readonly number[]) => number,
): number[] {
  const predicted = new Array<number>(rows.length).fill(Number.NaN);
  const k = Math.max(...folds) + 1;
  for (let f = 0; f < k; f++) {
    const trainIdx = folds.flatMap((fold, i) => (fold === f ? [] : [i]));
    const predict = fit(
      trainIdx.map((i) => rows[i] ?? []),
      trainIdx.map((i) => y[i] ?? 0),
    );
    folds.forEach((fold, i) => {
      if (fold === f) predicted[i] = predict(rows[i] ?? []);
    });
  }
  return predicted;
}
