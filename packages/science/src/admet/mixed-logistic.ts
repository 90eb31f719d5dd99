import { MORGAN_BITS } from "../fingerprint/morgan.ts";

/**
 * A logistic regression on fingerprint bits plus a few standardized descriptors:
 * P(y = 1) = σ(bias + Σ w[bit] over on bits + Σ v[j]·x[j]).
 */
export interface MixedLogisticModel {
  readonly bias: number;
  readonly weights: readonly number[];
  readonly dense: readonly number[];
}

export interface MixedRow {
  readonly bits: readonly number[];
  /** Standardized descriptors, in the model's column order. */
  readonly x: readonly number[];
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predictMixed(model: MixedLogisticModel, row: MixedRow): number {
  let z = model.bias;
  for (const bit of row.bits) z += model.weights[bit] ?? 0;
  model.dense.forEach((v, j) => {
    z += v * (row.x[j] ?? 0);
  });
  return sigmoid(z);
}

/**
 * Fits the L2-penalised logistic regression (le Cessie & van Houwelingen, Appl. Stat. 1992, 41,
 * 191; bias unpenalised) by full-batch Adam (Kingma & Ba, ICLR 2015) from zero weights:
 * deterministic, so the same data give the same weights on every machine.
 */
export function trainMixed(
  rows: readonly MixedRow[],
  labels: readonly (0 | 1)[],
  options: { l2: number; iterations: number; learningRate: number; denseColumns: number },
): MixedLogisticModel {
  const p = options.denseColumns;
  const width = MORGAN_BITS + p + 1; // bits, then dense columns, then the bias
  const biasAt = width - 1;
  const w = new Float64Array(width);
  const m = new Float64Array(width);
  const v = new Float64Array(width);
  const grad = new Float64Array(width);
  const n = rows.length;
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];
  for (let t = 1; t <= options.iterations; t++) {
    grad.fill(0);
    for (let r = 0; r < n; r++) {
      const row = rows[r] as MixedRow;
      let z = w[biasAt] ?? 0;
      for (const bit of row.bits) z += w[bit] ?? 0;
      for (let j = 0; j < p; j++) z += (w[MORGAN_BITS + j] ?? 0) * (row.x[j] ?? 0);
      const error = (sigmoid(z) - (labels[r] ?? 0)) / n;
      for (const bit of row.bits) grad[bit] = (grad[bit] ?? 0) + error;
      for (let j = 0; j < p; j++)
        grad[MORGAN_BITS + j] = (grad[MORGAN_BITS + j] ?? 0) + error * (row.x[j] ?? 0);
      grad[biasAt] = (grad[biasAt] ?? 0) + error;
    }
    for (let j = 0; j < width; j++) {
      const g = (grad[j] ?? 0) + (j === biasAt ? 0 : options.l2 * (w[j] ?? 0));
      m[j] = beta1 * (m[j] ?? 0) + (1 - beta1) * g;
      v[j] = beta2 * (v[j] ?? 0) + (1 - beta2) * g * g;
      const mHat = (m[j] ?? 0) / (1 - beta1 ** t);
      const vHat = (v[j] ?? 0) / (1 - beta2 ** t);
      w[j] = (w[j] ?? 0) - (options.learningRate * mHat) / (Math.sqrt(vHat) + epsilon);
    }
  }
  return {
    bias: w[biasAt] ?? 0,
    weights: Array.from(w.subarray(0, MORGAN_BITS)),
    dense: Array.from(w.subarray(MORGAN_BITS, MORGAN_BITS + p)),
  };
}
