import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { type LogisticOptions, predictLogistic, trainLogistic } from "./logistic-regression.ts";
import { rocAuc } from "./roc-auc.ts";

/**
 * Pooled out-of-fold ROC-AUC of the logistic regression over k seeded folds of every labelled row:
 * each row scored by a model fitted without its fold. A steadier figure than one small test set.
 */
export function crossValidatedRocAuc(
  rows: readonly (readonly number[])[],
  labels: readonly (0 | 1)[],
  k: number,
  seed: number,
  options: LogisticOptions,
): number {
  const folds = assignFolds(rows.length, k, seed);
  const scores = new Array<number>(rows.length).fill(0);
  for (let f = 0; f < k; f++) {
    const train = folds.flatMap((fold, i) => (fold === f ? [] : [i]));
    const model = trainLogistic(
      train.map((i) => rows[i] ?? []),
      train.map((i) => labels[i] ?? 0),
      options,
    );
    folds.forEach((fold, i) => {
      if (fold === f) scores[i] = predictLogistic(model, rows[i] ?? []);
    });
  }
  return rocAuc(scores, labels);
}
