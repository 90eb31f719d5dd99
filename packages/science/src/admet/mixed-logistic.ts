import {
  type BitsAndDenseModel,
  type BitsAndDenseRow,
  sigmoid,
  trainBitsAndDense,
} from "../fingerprint/logistic-regression.ts";

/**
 * A logistic regression on fingerprint bits plus a few standardized descriptors:
 * P(y = 1) = σ(bias + Σ w[bit] over on bits + Σ v[j]·x[j]). Trained by the one fingerprint
 * logistic-regression trainer (fingerprint/logistic-regression.ts) with dense columns.
 */
export type MixedLogisticModel = BitsAndDenseModel;

/** On bits and the standardized descriptors, in the model's column order. */
export type MixedRow = BitsAndDenseRow;

export function predictMixed(model: MixedLogisticModel, row: MixedRow): number {
  let z = model.bias;
  for (const bit of row.bits) z += model.weights[bit] ?? 0;
  model.dense.forEach((v, j) => {
    z += v * (row.x[j] ?? 0);
  });
  return sigmoid(z);
}

/** See trainBitsAndDense: L2-penalised, bias unpenalised, full-batch Adam from zero weights. */
export const trainMixed = trainBitsAndDense;
