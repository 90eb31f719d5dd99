import { MORGAN_BITS } from "./morgan.ts";

/** A logistic regression on fingerprint bits: P(y = 1) = σ(bias + Σ w[bit] over on bits). */
export interface LogisticModel {
  readonly bias: number;
  readonly weights: readonly number[];
}

/** The same with a few dense columns beside the bits: + Σ dense[j]·x[j]. */
export interface BitsAndDenseModel extends LogisticModel {
  readonly dense: readonly number[];
}

/** One training row: the on bits, and the dense columns (standardized) in the model's order. */
export interface BitsAndDenseRow {
  readonly bits: readonly number[];
  readonly x: readonly number[];
}

export interface LogisticOptions {
  /** L2 penalty on the mean log-loss (the bias is not penalised). */
  readonly l2: number;
  readonly iterations: number;
  readonly learningRate: number;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predictLogistic(model: LogisticModel, onBits: readonly number[]): number {
  let z = model.bias;
  for (const bit of onBits) z += model.weights[bit] ?? 0;
  return sigmoid(z);
}

/**
 * Fits L2-regularised logistic regression (Cox 1958; le Cessie & van Houwelingen, Appl. Stat. 1992,
 * 41, 191) on fingerprint bits alone.
 */
export function trainLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly (0 | 1)[],
  options: LogisticOptions,
): LogisticModel {
  const { bias, weights } = trainBitsAndDense(
    rows.map((bits) => ({ bits, x: [] })),
    labels,
    { ...options, denseColumns: 0 },
  );
  return { bias, weights };
}

/**
 * Fits the L2-penalised logistic regression (le Cessie & van Houwelingen 1992; bias unpenalised)
 * on bits plus `denseColumns` dense columns by full-batch Adam (Kingma & Ba, ICLR 2015) from zero
 * weights: deterministic, no sampling, so the same data give the same weights on every machine.
 * With no dense columns it is the bits-only model (the same arithmetic, step for step).
 */
export function trainBitsAndDense(
  rows: readonly BitsAndDenseRow[],
  labels: readonly (0 | 1)[],
  options: LogisticOptions & { readonly denseColumns: number },
): BitsAndDenseModel {
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
      const row = rows[r] as BitsAndDenseRow;
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
