import {
  BBBP_VALIDATION,
  bbbModelValidation,
  EGG_TPSA_SP_SHIFT,
  logdValidation,
} from "./admet-predictions.ts";

const f3 = (value: number) => value.toFixed(3);
const pct = (share: number) => `${Math.round(share * 100)}%`;

/**
 * docs/science.md's admet_predictions figures (issue 24 item 7): BOILED-Egg on BBBP, the S/P TPSA
 * shift, and each trained model beside the constant predictor and the simple rule on the same
 * scaffold-split test rows, read from the same functions the run's summary uses.
 */
export function admetFiguresMarkdown(): string {
  const bbb = bbbModelValidation();
  const logd = logdValidation();
  const moved = Object.entries(EGG_TPSA_SP_SHIFT.moved);
  const constantBbb = bbb.constant_same_rows;
  const constantLogd = logd.training_mean_same_rows;
  return [
    `BOILED-Egg brain access (yolk) against all BBBP labels (${BBBP_VALIDATION.scored.toLocaleString("en-US")} compounds): accuracy **${f3(BBBP_VALIDATION.accuracy)}**, ` +
      `MCC **${f3(BBBP_VALIDATION.mcc)}**. The S and P terms of \`tpsa_sp\` move ${moved.reduce((s, [, n]) => s + n, 0)} of the first ` +
      `${EGG_TPSA_SP_SHIFT.compounds.toLocaleString("en-US")} ChEMBL compounds of the Lipophilicity set to another region than N,O-only TPSA would ` +
      `(${moved.map(([move, n]) => `${n} ${move.replace("→", " → ")}`).join(", ")}).`,
    "",
    "Scaffold-split test rows (MoleculeNet's split, native RDKit Murcko scaffolds), each model beside the constant predictor and the simple rule on the same rows:",
    "",
    "| endpoint | test rows | this model | constant predictor | simple rule | MoleculeNet (published) | adopted |",
    "|---|---|---|---|---|---|---|",
    `| BBB penetration (\`bbbp_logreg_morgan2\`) | ${bbb.test_rows} (${pct(constantBbb.test_penetrant_share)} penetrant; train ${pct(constantBbb.train_penetrant_share)}) | ` +
      `ROC-AUC ${f3(bbb.test_roc_auc)}, accuracy ${f3(bbb.test_accuracy)}, MCC ${f3(bbb.test_mcc)} | ` +
      `the training majority (${constantBbb.majority.replace("_", "-")}): accuracy ${f3(constantBbb.accuracy)}, MCC 0.000, ROC-AUC 0.500 | ` +
      `BOILED-Egg: accuracy ${f3(bbb.boiled_egg_same_rows.accuracy)}, MCC ${f3(bbb.boiled_egg_same_rows.mcc)} | ` +
      `ROC-AUC, same kind of split: kernel SVM ${f3(bbb.moleculenet_test_roc_auc.kernelsvm_test_roc_auc)}, graph convolution ${f3(bbb.moleculenet_test_roc_auc.graphconv_test_roc_auc)} | ` +
      `${bbb.adopted ? "yes" : "no: BOILED-Egg stays the BBB call"} |`,
    `| log D7.4 (\`${logd.model}\`) | ${logd.test_rows} | RMSE ${f3(logd.test_rmse)}, r² ${f3(logd.test_r2)} | ` +
      `the training mean (${constantLogd.training_mean.toFixed(2)}): RMSE ${f3(constantLogd.rmse)} | ` +
      `WLOGP (Wildman–Crippen) read as log D: RMSE ${f3(logd.wlogp_as_logd_same_rows.rmse)} | ` +
      `RMSE, random split (easier): graph convolution ${f3(logd.moleculenet_test_rmse.graphconv_test_rmse)} | ` +
      `${logd.adopted ? "yes" : "no"} |`,
    "",
    `The BBB model's history: ${bbb.history}.`,
  ].join("\n");
}
