import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { row } from "../../test/support/compound-row.ts";
import { assertNativeInCi, nativeMissing, runNative } from "../../test/support/native-rdkit.ts";
import { inOneThread } from "../define-module.ts";
import { crossValidatedRocAuc } from "../fingerprint/cross-validated-auc.ts";
import { trainLogistic } from "../fingerprint/logistic-regression.ts";
import { decodeOnBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { rocAuc } from "../fingerprint/roc-auc.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { clinicalPrecedentPrior, MOLECULENET_CLINTOX_GRAPHCONV } from "./clinical-precedent-prior.ts";
import { readClinToxModelFile } from "./clintox-model.ts";
import { clinToxRows } from "./clintox-set.ts";

// Aspirin, imatinib, caffeine, procainamide: drugs and near-drugs whose neighbours a chemist can check.
const FIXTURES = [
  "CC(=O)Oc1ccccc1C(=O)O",
  "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1",
  "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
  "CCN(CC)CCNC(=O)c1ccc(N)cc1",
];

describe("clinical_precedent_prior", () => {
  assertNativeInCi();
  it("nearest approved drugs and their Tanimoto equal native RDKit's (Morgan bit vectors, BulkTanimotoSimilarity)", {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = runNative<Record<string, [number, number][]>>("approved-neighbours.py", [
      fileURLToPath(new URL("../../data/clintox.csv", import.meta.url)),
      JSON.stringify(FIXTURES),
    ]);
    const analyzer = inOneThread(clinicalPrecedentPrior);
    FIXTURES.forEach((smiles, i) => {
      const finding = analyzer.analyze(prepareCompound(rdkit, row(i + 1, smiles)));
      const expected = native[smiles] ?? [];
      assert.deepEqual(
        finding.nearest_approved_drugs?.map((n) => n.clintox_row),
        expected.map(([r]) => r),
        smiles,
      );
      for (const [k, n] of (finding.nearest_approved_drugs ?? []).entries())
        assert.ok(Math.abs(n.tanimoto - (expected[k]?.[1] ?? -1)) < 0.0005, `${smiles}: ${n.tanimoto}`);
    });
  });

  it("caffeine finds itself among ClinTox's approved drugs; each finding names its model and domain", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(clinicalPrecedentPrior);
    const caffeine = analyzer.analyze(prepareCompound(rdkit, row(1, "Cn1cnc2c1c(=O)n(C)c(=O)n2C")));
    assert.equal(caffeine.max_tanimoto_approved, 1);
    assert.equal(caffeine.nearest_approved_drugs?.length, 3);
    assert.equal(caffeine.ct_tox_model, "clintox_ct_tox_logreg_morgan2");
    assert.equal(caffeine.ct_tox_in_domain, true);
    assert.ok((caffeine.ct_tox_probability ?? -1) >= 0 && (caffeine.ct_tox_probability ?? 2) <= 1);
    const bad = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC")));
    assert.equal(bad.status, "not_assessed");
    assert.equal(bad.ct_tox_probability, null);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 1);
    assert.equal(summary.validation.moleculenet_graphconv_test_roc_auc, MOLECULENET_CLINTOX_GRAPHCONV);
    assert.match(summary.method.citations[0] ?? "", /Gayvert/);
  });

  it("the checked-in fingerprints are RDKit's for the parents of ClinTox rows (every 50th row)", async () => {
    const rdkit = await loadRDKit();
    const file = readClinToxModelFile();
    const rows = clinToxRows();
    for (let i = 0; i < rows.length; i += 50)
      assert.deepEqual(
        parentOnBits(rdkit, rows[i]?.smiles ?? ""),
        decodeOnBits(file.row_bits[i] ?? ""),
        `row ${i + 1}`,
      );
  });

  it("the CT_TOX test ROC-AUC recomputes from the checked-in weights on rows no fit saw, and refitting gives the weights", () => {
    const file = readClinToxModelFile();
    const task = file.tasks[0];
    assert.ok(task);
    const labels = clinToxRows().map((r) => r.ctTox);
    const rowsOf = (codes: string) =>
      [...file.row_split].flatMap((code, i) => (codes.includes(code) ? [i] : []));
    const test = rowsOf("s");
    const bits = file.row_bits.map(decodeOnBits);
    const predict = (model: { bias: number; weights: readonly number[] }, i: number) =>
      1 / (1 + Math.exp(-(model.bias + (bits[i] ?? []).reduce((s, b) => s + (model.weights[b] ?? 0), 0))));
    const auc = rocAuc(
      test.map((i) => predict(task, i)),
      test.map((i) => labels[i] ?? 0),
    );
    assert.ok(Math.abs(auc - task.test_roc_auc) < 1e-5, `recorded ${task.test_roc_auc}, now ${auc}`);
    assert.ok(auc > 0.75, `CT_TOX test ROC-AUC ${auc}`);
    // The deployed weights are a fit on train + valid only: refit and compare predictions on test.
    const fitRows = rowsOf("tv");
    const refit = trainLogistic(
      fitRows.map((i) => bits[i] ?? []),
      fitRows.map((i) => labels[i] ?? 0),
      { l2: task.l2, iterations: file.training.iterations, learningRate: file.training.learning_rate },
    );
    for (const i of test.slice(0, 40)) assert.ok(Math.abs(predict(refit, i) - predict(task, i)) < 1e-3);
    // The 10-fold cross-validated figure recomputes too (seed and folds as the training script).
    const labelled = rowsOf("tvs");
    const cv = crossValidatedRocAuc(
      labelled.map((i) => bits[i] ?? []),
      labelled.map((i) => labels[i] ?? 0),
      task.cv_folds ?? 0,
      file.seed,
      { l2: task.l2, iterations: file.training.iterations, learningRate: file.training.learning_rate },
    );
    assert.ok(Math.abs(cv - (task.cv_roc_auc ?? -1)) < 1e-5, `recorded ${task.cv_roc_auc}, now ${cv}`);
  });
});
