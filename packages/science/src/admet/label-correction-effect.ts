import { correctionsOf } from "./tdc-label-corrections.ts";
import { readTdcModelFile } from "./tdc-model.ts";
import type { ClassifierFigures } from "./tdc-model-file.ts";

const f3 = (v: number) => v.toFixed(3);

/**
 * docs/science.md's table of a model's cited label corrections and their effect (issue 36 item 7):
 * the deployed model (corrected labels) beside the same pipeline trained on TDC's labels as shipped,
 * on the same scaffold-test rows, and each corrected compound's calibrated probability under both.
 * Read from the model file the training script wrote; admet/tdc-models.validation.test.ts recomputes the
 * deployed figures and fails when this table differs from the docs'.
 */
export function labelCorrectionEffectTable(key: string): string {
  const file = readTdcModelFile(key);
  const effect = file.label_correction_effect;
  if (effect === undefined) return `${key}: no label corrections\n`;
  const after = file.test.model as ClassifierFigures;
  const before = effect.test.model as ClassifierFigures;
  const lines = [
    "| | labels | test AUROC | AUPRC | MCC | ECE | Brier | conformal coverage |",
    "|---|---|---|---|---|---|---|---|",
    `| before | TDC's as shipped | ${f3(before.auroc)} | ${f3(before.auprc)} | ${f3(before.mcc)} | ${f3(before.ece)} | ${f3(before.brier)} | ${f3(effect.test.conformal_coverage)} |`,
    `| after (deployed) | ${correctionsOf(file.file).length} corrected | ${f3(after.auroc)} | ${f3(after.auprc)} | ${f3(after.mcc)} | ${f3(after.ece)} | ${f3(after.brier)} | ${f3(file.test.conformal_coverage)} |`,
    "",
    "| compound (line) | label → corrected | source | probability before | after |",
    "|---|---|---|---|---|",
    ...correctionsOf(file.file).map(
      (c) =>
        `| ${c.drug_id.toLowerCase()} (${c.line}) | ${c.from} → ${c.to} | ${c.source} | ` +
        `${f3(effect.probabilities[c.drug_id] ?? Number.NaN)} | ${f3(file.corrected_rows?.probabilities[c.drug_id] ?? Number.NaN)} |`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
