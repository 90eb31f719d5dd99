import { solveSpd } from "../numeric/cholesky.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";
import { meanAbsoluteError, rmse, rSquared, standardize } from "./fit-regression.ts";

/** The fits compared on AqSolDB's scaffold CV, the constant predictor first (named in every output). */
export const SOLUBILITY_CANDIDATES = [
  "constant",
  "esol_published_crippen",
  "esol_refit_rdkit",
  "ridge_rdkit2d",
  "mlp64_morgan2_rdkit2d",
] as const;
export type SolubilityCandidate = (typeof SOLUBILITY_CANDIDATES)[number];

/** The scaffold CV every solubility figure comes from (issue 36 item 9). */
export const SOLUBILITY_CV = {
  folds: 10,
  seed: 20190828,
  grouping:
    "Bemis–Murcko scaffold of each parent (murckoScaffoldSmiles); every acyclic parent in one group (MoleculeNet's convention)",
} as const;

/**
 * The network's settings, fixed in advance (those of the TDC regressors, train-tdc-models.ts), its
 * epoch chosen by early stopping on the last of `innerFolds` scaffold-grouped folds of the training part.
 */
export const NETWORK = {
  hidden: 64,
  epochs: 120,
  batch: 128,
  learningRate: 2e-3,
  weightDecay: 0.01,
  innerFolds: 10,
} as const;

/** Dense columns clipped to ±6 standard deviations after standardizing, as the TDC models do. */
export function networkRow(
  bits: readonly number[],
  dense: readonly number[],
  scale: { mean: number[]; scale: number[] },
): { bits: readonly number[]; x: number[] } {
  return { bits, x: standardize(dense, scale).map((v) => Math.max(-6, Math.min(6, v))) };
}

export interface RidgeModel {
  readonly lambdaPerRow: number;
  readonly scale: { mean: number[]; scale: number[] };
  readonly intercept: number;
  readonly weights: number[];
}

/** Ridge on the standardized, clipped descriptors, λ = 0.1 per row fixed in advance (train-tdc-models.ts's baseline). */
export function fitRidge(rows: readonly (readonly number[])[], y: readonly number[]): RidgeModel {
  const lambdaPerRow = 0.1;
  const p = rows[0]?.length ?? 0;
  const mean = new Array<number>(p).fill(0);
  const sd = new Array<number>(p).fill(0);
  for (const r of rows) for (let j = 0; j < p; j++) mean[j] = (mean[j] ?? 0) + (r[j] ?? 0) / rows.length;
  for (const r of rows)
    for (let j = 0; j < p; j++) sd[j] = (sd[j] ?? 0) + ((r[j] ?? 0) - (mean[j] ?? 0)) ** 2 / rows.length;
  const scale = { mean, scale: sd.map((s) => (s > 0 ? Math.sqrt(s) : 1)) };
  const yMean = y.reduce((a, b) => a + b, 0) / y.length;
  const a = new Float64Array(p * p);
  const rhs = new Float64Array(p);
  rows.forEach((r, k) => {
    const x = networkRow([], r, scale).x;
    for (let i = 0; i < p; i++) {
      rhs[i] = (rhs[i] ?? 0) + (x[i] ?? 0) * ((y[k] ?? 0) - yMean);
      for (let j = 0; j < p; j++) a[i * p + j] = (a[i * p + j] ?? 0) + (x[i] ?? 0) * (x[j] ?? 0);
    }
  });
  for (let i = 0; i < p; i++) a[i * p + i] = (a[i * p + i] ?? 0) + rows.length * lambdaPerRow;
  return { lambdaPerRow, scale, intercept: yMean, weights: [...solveSpd(a, p, rhs)] };
}

export function predictRidge(model: RidgeModel, dense: readonly number[]): number {
  const x = networkRow([], dense, model.scale).x;
  return x.reduce((s, v, j) => s + v * (model.weights[j] ?? 0), model.intercept);
}

export interface SolubilityFigures {
  readonly n: number;
  readonly rmse: number;
  readonly mae: number;
  readonly r2: number;
}

const fig = (v: number) => Number(v.toPrecision(6));

export function regressionFigures(
  predicted: readonly number[],
  observed: readonly number[],
): SolubilityFigures {
  return {
    n: predicted.length,
    rmse: fig(rmse(predicted, observed)),
    mae: fig(meanAbsoluteError(predicted, observed)),
    r2: fig(rSquared(predicted, observed)),
  };
}

/**
 * The 99th percentile of Tanimoto between random pairs of training compounds (20,000 seeded
 * pairs): the similarity two unrelated compounds reach by chance, under which no domain floor may go.
 */
export function randomPairTanimoto<F>(
  fps: readonly F[],
  seed: number,
  tanimoto: (a: F, b: F) => number,
): number {
  const random = mulberry32(seed);
  const values: number[] = [];
  while (values.length < 20000) {
    const i = Math.floor(random() * fps.length);
    const j = Math.floor(random() * fps.length);
    if (i === j) continue;
    values.push(tanimoto(fps[i] as F, fps[j] as F));
  }
  values.sort((a, b) => a - b);
  return fig(values[Math.floor(0.99 * (values.length - 1))] ?? 0);
}

/** Lower edges of the nearest-training-Tanimoto bins the out-of-fold error is read in. */
export const DOMAIN_BINS = [0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8] as const;

export interface CurvePoint {
  readonly from: number;
  readonly n: number;
  readonly rmse: number;
}

/** Out-of-fold RMSE per bin of the held-out compound's nearest Tanimoto to its training folds. */
export function similarityCurve(
  nearest: readonly number[],
  predicted: readonly number[],
  observed: readonly number[],
): CurvePoint[] {
  return DOMAIN_BINS.map((from, b) => {
    const to = DOMAIN_BINS[b + 1] ?? Number.POSITIVE_INFINITY;
    const inBin = nearest.flatMap((s, i) => (s >= from && s < to ? [i] : []));
    return {
      from,
      n: inBin.length,
      rmse:
        inBin.length === 0
          ? 0
          : fig(
              rmse(
                inBin.map((i) => predicted[i] ?? 0),
                inBin.map((i) => observed[i] ?? 0),
              ),
            ),
    };
  });
}

/** How far above the model's overall scaffold-CV RMSE a bin's error may rise inside the domain. */
export const ERROR_RISE = 1.1;

/**
 * The domain floor: the lowest bin edge, at or above the random-pair similarity, from which every
 * bin's out-of-fold RMSE stays within {@link ERROR_RISE} × the overall RMSE — where the error rises
 * is where the domain ends (Sheridan et al. 2004: error grows as similarity to the training set falls).
 */
export function chooseDomainFloor(
  curve: readonly CurvePoint[],
  overallRmse: number,
  randomPair: number,
): number {
  let floor = curve[curve.length - 1]?.from ?? 1;
  for (let b = curve.length - 1; b >= 0; b--) {
    const point = curve[b] as CurvePoint;
    if (point.n > 0 && point.rmse > ERROR_RISE * overallRmse) break;
    floor = point.from;
  }
  return Math.max(floor, randomPair);
}
