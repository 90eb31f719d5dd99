import { MORGAN_BITS } from "./morgan.ts";

/** A logistic regression on fingerprint bits: P(y = 1) = σ(bias + Σ w[bit] over on bits). */
export interface LogisticModel {
  readonly bias: number;
  readonly weights: readonly number[];
}

export interface LogisticOptions {
  /** L2 penalty on the mean log-loss (the bias is not penalised). */
  readonly l2: number;
  readonly iterations: number;
  readonly learningRate: number;
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predictLogistic(model: LogisticModel, onBits: readonly number[]): number {
  let z = model.bias;
  for (const bit of onBits) z += model.weights[bit] ?? 0;
  return sigmoid(z);
}

/**
 * Fits L2-regularised logistic regression (Cox 1958; le Cessie & van Houwelingen, Appl. Stat. 1992,
 * 41, 191) by full-batch Adam (Kingma & Ba, ICLR 2015) from zero weights: deterministic, no
 * sampling, so the same data give the same weights on every machine.
 */
export function trainLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly (0 | 1)[],
  options: LogisticOptions,
): LogisticModel {
  const width = MORGAN_BITS + 1; // the last slot is the bias
  const w = new Float64Array(width);
  const m = new Float64Array(width);
  const v = new Float64Array(width);
  const grad = new Float64Array(width);
  const n = rows.length;
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];
  for (let t = 1; t <= options.iterations; t++) {
    grad.fill(0);
    for (let r = 0; r < n; r++) {
      const bits = rows[r] ?? [];
      let z = w[MORGAN_BITS] ?? 0;
      for (const bit of bits) z += w[bit] ?? 0;
      const error = (sigmoid(z) - (labels[r] ?? 0)) / n;
      for (const bit of bits) grad[bit] = (grad[bit] ?? 0) + error;
      grad[MORGAN_BITS] = (grad[MORGAN_BITS] ?? 0) + error;
    }
    for (let j = 0; j < width; j++) {
      const g = (grad[j] ?? 0) + (j === MORGAN_BITS ? 0 : options.l2 * (w[j] ?? 0));
      m[j] = beta1 * (m[j] ?? 0) + (1 - beta1) * g;
      v[j] = beta2 * (v[j] ?? 0) + (1 - beta2) * g * g;
      const mHat = (m[j] ?? 0) / (1 - beta1 ** t);
      const vHat = (v[j] ?? 0) / (1 - beta2 ** t);
      w[j] = (w[j] ?? 0) - (options.learningRate * mHat) / (Math.sqrt(vHat) + epsilon);
    }
  }
  return { bias: w[MORGAN_BITS] ?? 0, weights: [...w.subarray(0, MORGAN_BITS)] };
}
