/**
 * The five-component CNS MPO (no pKa) against BBBP's brain-penetration labels, on the BBB model's
 * held-out scaffold-split test rows (Martins et al., J. Chem. Inf. Model. 2012, 52, 1686): the
 * ranking figure beside the BBB model's and the constant predictor's (0.5). Recomputed from the
 * SMILES by cns-mpo-validation.test.ts, which fails when these numbers drift.
 */
export const CNS_MPO_VALIDATION = {
  dataset: "bbbp.csv, the BBB model's scaffold-split test rows",
  rows: 204,
  positives: 107,
  /** ROC-AUC of the midpoint of the MPO's range (pKa missing: [known, known + 1]). */
  mpo5_roc_auc: 0.57,
  bbb_model_roc_auc: 0.74,
} as const;
