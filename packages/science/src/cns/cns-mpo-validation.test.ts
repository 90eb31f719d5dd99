import assert from "node:assert/strict";
import { test } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { logdDescriptorRow, parentFeatures } from "../admet/admet-model-features.ts";
import { readBbbModelFile } from "../admet/bbb-model.ts";
import { parseBbbp } from "../admet/lipophilicity-set.ts";
import { logdModel, predictLogd } from "../admet/logd-model.ts";
import { scaffoldSplit } from "../admet/scaffold-splits.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { rocAuc } from "../fingerprint/roc-auc.ts";
import { round } from "../numeric/round.ts";
import { loadRDKit } from "../rdkit.ts";
import { cnsMpo } from "./cns-mpo.ts";
import { CNS_MPO_VALIDATION } from "./cns-mpo-validation.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/cns/cns-mpo-validation.test.ts";

test("the five-component CNS MPO ranks BBBP's held-out penetrants above chance, as recorded beside the BBB model", async () => {
  const rdkit = await loadRDKit();
  const rows = parseBbbp(readDataFile("bbbp.csv"));
  const test = scaffoldSplit("bbbp.csv").flatMap((part, i) => (part === "test" ? [i] : []));
  const logd = logdModel();
  const scores: number[] = [];
  const labels: (0 | 1)[] = [];
  let undetermined = 0;
  for (const i of test) {
    const f = parentFeatures(rdkit, rows[i]?.smiles ?? "");
    assert.ok(f !== null, `row ${i + 1} parses`);
    const row = logdDescriptorRow(f.descriptors, f.anionic);
    const estimate = predictLogd(logd, f.onBits, row);
    const mpo = cnsMpo({
      clogp: { value: f.descriptors.wlogp },
      clogd: { value: estimate.nearest_tanimoto >= logd.file.domain.min_tanimoto ? estimate.value : null },
      mw: { value: f.descriptors.mw },
      tpsa: { value: f.descriptors.tpsa },
      hbd: { value: f.descriptors.hbd },
      pka: { value: null },
    });
    if (mpo.meets_threshold === null) undetermined++;
    scores.push((mpo.score_range[0] + mpo.score_range[1]) / 2);
    labels.push(rows[i]?.penetrant ? 1 : 0);
  }
  const auc = round(rocAuc(scores, labels), 3);
  const bbb = readBbbModelFile().test;
  console.log(
    `# CNS MPO (5 of 6) on ${test.length} BBBP test rows: ROC-AUC ${auc}; BBB model ${bbb.roc_auc}`,
  );
  assert.equal(test.length, CNS_MPO_VALIDATION.rows);
  assert.equal(labels.filter((label) => label === 1).length, CNS_MPO_VALIDATION.positives);
  assert.equal(auc, CNS_MPO_VALIDATION.mpo5_roc_auc);
  assert.equal(round(bbb.roc_auc, 3), CNS_MPO_VALIDATION.bbb_model_roc_auc);
  assert.ok(auc > 0.5, "the MPO ranks penetrants above chance");
  assertGeneratedBlock(
    DOCS,
    "cns-mpo-bbbp",
    SOURCE,
    `- Five-component CNS MPO (pKa absent; the midpoint of its range) on the ${test.length} held-out BBBP ` +
      `scaffold-split rows (${CNS_MPO_VALIDATION.positives} penetrants): ROC-AUC ${auc}; the BBB model on the ` +
      `same rows ${round(bbb.roc_auc, 3)}; the constant predictor 0.5. ${undetermined} of ${test.length} ` +
      "compounds have meets_threshold null (the missing pKa term would decide).",
  );
});
