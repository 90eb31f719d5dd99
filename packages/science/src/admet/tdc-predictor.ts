import type { MixedLogisticModel } from "./mixed-logistic.ts";
import { mlpOutput, type SparseMlp, type SparseRow } from "./sparse-mlp.ts";

/** The fitted predictor of a TDC model file: the network, or the logistic regression when valid chose it. */
export type TdcPredictor =
  | { readonly kind: "mlp"; readonly network: SparseMlp }
  | { readonly kind: "logistic"; readonly logistic: MixedLogisticModel };

/** The predictor's output before the link: a logit (classifier) or a standardized value (regressor). */
export function predictorOutput(p: TdcPredictor, row: SparseRow): number {
  if (p.kind === "mlp") return mlpOutput(p.network, row);
  let z = p.logistic.bias;
  for (const bit of row.bits) z += p.logistic.weights[bit] ?? 0;
  p.logistic.dense.forEach((v, j) => {
    z += v * (row.x[j] ?? 0);
  });
  return z;
}
