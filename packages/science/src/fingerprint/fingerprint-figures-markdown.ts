import { aurocLowerBound } from "../admet/tdc-metrics.ts";
import type { FingerprintModelFile, TaskModel } from "./fingerprint-model-file.ts";

const f3 = (value: number) => value.toFixed(3);

/** Hanley & McNeil's (1982) 95% half-width of a ROC-AUC from its positive and negative counts. */
function aucHalfWidth(task: TaskModel): number {
  const labels: (0 | 1)[] = [
    ...Array<1>(task.test_positives).fill(1),
    ...Array<0>(task.n_test - task.test_positives).fill(0),
  ];
  return task.test_roc_auc - aurocLowerBound(task.test_roc_auc, labels);
}

/**
 * docs/science.md's ClinTox figures (issue 24 item 7), from the checked-in model file: the CT_TOX
 * test and cross-validated ROC-AUC beside the constant predictor and MoleculeNet's published figure.
 */
export function clintoxFiguresMarkdown(file: FingerprintModelFile, moleculenetGraphConv: number): string {
  const task = file.tasks.find((t) => t.name === "CT_TOX");
  if (task === undefined) throw new Error("clintox-fingerprint-model.json has no CT_TOX task");
  return [
    `Domain: nearest training compound at least Tanimoto **${f3(file.domain.min_tanimoto)}** (the ${file.domain.percentile}th percentile of the training compounds' own nearest neighbours).`,
    "",
    "| CT_TOX | ROC-AUC |",
    "|---|---|",
    `| this model, test (${task.n_test} compounds, ${task.test_positives} failures; Hanley & McNeil 95% ± ${f3(aucHalfWidth(task))}) | **${f3(task.test_roc_auc)}** |`,
    `| this model, valid | ${f3(task.valid_roc_auc)} |`,
    ...(task.cv_roc_auc === undefined
      ? []
      : [
          `| this model, ${task.cv_folds}-fold cross-validated over all compounds | **${f3(task.cv_roc_auc)}** |`,
        ]),
    "| constant predictor (the failure rate for every compound) | 0.500 |",
    `| MoleculeNet graph convolution (random split, mean of its two ClinTox tasks; published) | ${f3(moleculenetGraphConv)} |`,
  ].join("\n");
}

/**
 * docs/science.md's Tox21 fingerprint-model figures (issue 24 item 7): per assay the held-out test
 * ROC-AUC from the checked-in model file, with the constant predictor and MoleculeNet's mean beside it.
 */
export function tox21FiguresMarkdown(file: FingerprintModelFile, moleculenetGraphConv: number): string {
  return [
    `Domain: nearest training compound at least Tanimoto **${f3(file.domain.min_tanimoto)}** (the ${file.domain.percentile}th percentile of the training compounds' own nearest neighbours). ` +
      `Held-out test ROC-AUC, mean **${f3(file.mean_test_roc_auc)}**, beside MoleculeNet's graph convolution mean ` +
      `**${f3(moleculenetGraphConv)}** (random split; MoleculeNet publishes only the mean). The constant (prevalence) ` +
      "predictor scores 0.500 on every assay; this logistic regression is itself the simple fingerprint baseline " +
      "the graph network (`gcn_toxicity`) is compared with.",
    "",
    "| assay | test ROC-AUC | Hanley & McNeil 95% ± | test compounds | actives |",
    "|---|---|---|---|---|",
    ...file.tasks.map(
      (t) =>
        `| ${t.name} | ${f3(t.test_roc_auc)} | ${f3(aucHalfWidth(t))} | ${t.n_test} | ${t.test_positives} |`,
    ),
  ].join("\n");
}
