import type { GcnFiguresFile } from "./gcn-toxicity.ts";

/** The docs/science.md generated block this file renders (issue 24 item 7). */
export const GCN_DOCS_BLOCK = "gcn-toxicity-figures";

const f3 = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(3));

/**
 * The docs/science.md block of gcn_toxicity's figures: per assay, both models on both splits and
 * the model the report uses, from the checked-in figures file (a test keeps the two in step).
 */
export function gcnFiguresMarkdown(figures: GcnFiguresFile): string {
  const { random, scaffold } = figures.splits;
  const lines = [
    `Seed ${figures.seed}; \`tox21.csv\` sha256 \`${figures.training_data_sha256}\`. ROC-AUC on held-out rows; ` +
      "GCN = this module's network, FP = `toxicity_profile`'s `tox21_fingerprint_model` (Morgan logistic " +
      "regression) on the same rows. Random split: MoleculeNet's kind for Tox21 (80/10/10, seeded). Scaffold " +
      "split: MoleculeNet's Bemis–Murcko split (`scaffold-splits.json`). *Use* is the model the report shows " +
      "for the assay: the one with the higher validation ROC-AUC on the scaffold split. The constant (prevalence) " +
      "predictor scores 0.500 on every assay and split; FP is the simple fingerprint baseline.",
    "",
    "| assay | random test GCN | random test FP | scaffold valid GCN | scaffold valid FP | scaffold test GCN | scaffold test FP | test actives (random / scaffold) | use |",
    "|---|---|---|---|---|---|---|---|---|",
    ...figures.tasks.map(
      (task, t) =>
        `| ${task} | ${f3(random.gcn.test_roc_auc[t])} | ${f3(random.fingerprint_model.test_roc_auc[t])} | ` +
        `${f3(scaffold.gcn.valid_roc_auc[t])} | ${f3(scaffold.fingerprint_model.valid_roc_auc[t])} | ` +
        `${f3(scaffold.gcn.test_roc_auc[t])} | ${f3(scaffold.fingerprint_model.test_roc_auc[t])} | ` +
        `${random.counts.test.positives[t]} / ${scaffold.counts.test.positives[t]} | ` +
        `${figures.adopted[task] === "gcn" ? "GCN" : "FP"} |`,
    ),
    `| **mean** | **${f3(random.gcn.mean_test_roc_auc)}** | **${f3(random.fingerprint_model.mean_test_roc_auc)}** | ` +
      `${f3(scaffold.gcn.mean_valid_roc_auc)} | ${f3(scaffold.fingerprint_model.mean_valid_roc_auc)} | ` +
      `**${f3(scaffold.gcn.mean_test_roc_auc)}** | **${f3(scaffold.fingerprint_model.mean_test_roc_auc)}** | | |`,
    "",
    `MoleculeNet's GraphConv on its random split: mean test ROC-AUC **${f3(figures.moleculenet_graphconv_mean_test_roc_auc)}** ` +
      "(Wu et al. 2018; only the mean is published). Early stopping chose epoch " +
      `${random.best_epoch} (random) and ${scaffold.best_epoch} (scaffold).`,
  ];
  return lines.join("\n");
}
