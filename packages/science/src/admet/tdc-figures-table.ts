import { modelSkill, reportedPerCompound } from "./skill-margin.ts";
import { TDC_DATASETS } from "./tdc-datasets.ts";
import { readTdcModelFile } from "./tdc-model.ts";
import type { ClassifierFigures, RegressorFigures } from "./tdc-model-file.ts";

const f3 = (v: number) => v.toFixed(3);

/**
 * The table of docs/science.md that sets each TDC model's held-out figures (our scaffold split) beside
 * ADMET-AI's published random-split figure (ADMET_AI_SPLIT), the logistic/ridge baseline and the constant predictor. Generated from the
 * checked-in model files; admet/tdc-models.validation.test.ts fails when the docs' copy differs.
 */
export function tdcFiguresTable(): string {
  const lines = [
    "| endpoint | unit | module | compounds (train/valid/test) | deployed | ours on test | simple baseline | constant | ADMET-AI (random 80/10/10 split) | adopted | skill margin: shown per compound |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const d of TDC_DATASETS) {
    const file = readTdcModelFile(d.key);
    const split = `${file.split.train}/${file.split.valid}/${file.split.test}`;
    const kind = file.model.predictor.kind === "mlp" ? "network" : "logistic";
    let ours: string;
    let simple: string;
    let constant: string;
    if (d.task === "classification") {
      const t = file.test.model as ClassifierFigures;
      ours = `AUROC ${f3(t.auroc)}, AUPRC ${f3(t.auprc)}, MCC ${f3(t.mcc)}, ECE ${f3(t.ece)}`;
      simple = `AUROC ${f3((file.test.simple as ClassifierFigures).auroc)}`;
      constant = `AUROC 0.500, AUPRC ${f3((file.test.constant as ClassifierFigures).auprc)}`;
    } else {
      const t = file.test.model as RegressorFigures;
      ours = `MAE ${f3(t.mae)}, RMSE ${f3(t.rmse)}, r² ${f3(t.r2)}`;
      simple = `MAE ${f3((file.test.simple as RegressorFigures).mae)}`;
      const c = file.test.constant as RegressorFigures;
      constant = `MAE ${f3(c.mae)}, RMSE ${f3(c.rmse)}`;
    }
    const anchor =
      d.admet_ai === null
        ? "—"
        : `${d.admet_ai.metric === "auroc" ? "AUROC" : "MAE"} ${f3(d.admet_ai.value)}`;
    lines.push(
      `| ${d.key} | ${d.unit} | \`${d.destination}\` | ${split} | ${kind} | ${ours} | ${simple} | ${constant} | ${anchor} | ` +
        `${file.adopted ? "yes" : "no"} | ${reportedPerCompound(file) ? "yes" : "no"} (${modelSkill(file).figures}) |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
