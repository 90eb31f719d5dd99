import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { inOneThread } from "../define-module.ts";
import { predictLogistic } from "../fingerprint/logistic-regression.ts";
import { decodeOnBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { rocAuc } from "../fingerprint/roc-auc.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { MOLECULENET_TOX21_GRAPHCONV, predictTox21, readTox21ModelFile } from "./tox21-model.ts";
import { parseTox21, TOX21_TASKS } from "./tox21-set.ts";
import { toxicityProfile } from "./toxicity-profile.ts";

describe("Tox21 fingerprint model (toxicity_profile.tox21_fingerprint_model)", () => {
  it("reads 7,831 compounds and 12 assays with blanks as not tested", () => {
    const rows = parseTox21(readDataFile("tox21.csv"));
    assert.equal(rows.length, 7831);
    assert.equal(rows[0]?.labels.length, 12);
    assert.equal(rows[0]?.labels[3], null); // first row: NR-Aromatase blank
    assert.equal(rows[0]?.labels[2], 1); // NR-AhR active
  });

  it("per-assay test ROC-AUC recomputes from the checked-in weights on rows no fit or choice saw", () => {
    const file = readTox21ModelFile();
    const rows = parseTox21(readDataFile("tox21.csv"));
    assert.deepEqual(
      file.tasks.map((t) => t.name),
      [...TOX21_TASKS],
    );
    const bits = file.row_bits.map(decodeOnBits);
    file.tasks.forEach((task, t) => {
      const test = rows.flatMap((r, i) => (file.row_split[i] === "s" && r.labels[t] !== null ? [i] : []));
      const auc = rocAuc(
        test.map((i) => predictLogistic(task, bits[i] ?? [])),
        test.map((i) => rows[i]?.labels[t] ?? 0),
      );
      assert.ok(
        Math.abs(auc - task.test_roc_auc) < 1e-5,
        `${task.name}: recorded ${task.test_roc_auc}, now ${auc}`,
      );
      // A fingerprint model well above chance on every assay; MoleculeNet's graph convolution averages 0.829.
      assert.ok(auc > 0.65, `${task.name} ${auc}`);
    });
    assert.ok(file.mean_test_roc_auc > 0.75 && file.mean_test_roc_auc < MOLECULENET_TOX21_GRAPHCONV + 0.05);
  });

  it("the checked-in fingerprints are RDKit's for the parents of Tox21 rows (every 200th row)", async () => {
    const rdkit = await loadRDKit();
    const file = readTox21ModelFile();
    const rows = parseTox21(readDataFile("tox21.csv"));
    for (let i = 0; i < rows.length; i += 200) {
      const bits = parentOnBits(rdkit, rows[i]?.smiles ?? "");
      assert.deepEqual(bits ?? [], decodeOnBits(file.row_bits[i] ?? ""), `row ${i + 1}`);
    }
  });

  it("a Tox21 training compound is in domain; toxicity_profile reports the model under its own key", async () => {
    const rdkit = await loadRDKit();
    const rows = parseTox21(readDataFile("tox21.csv"));
    const file = readTox21ModelFile();
    const trainRow = [...file.row_split].indexOf("t");
    const prediction = predictTox21(parentOnBits(rdkit, rows[trainRow]?.smiles ?? "") ?? []);
    assert.equal(prediction.max_tanimoto, 1);
    assert.equal(prediction.in_domain, true);
    assert.deepEqual(Object.keys(prediction.probabilities), [...TOX21_TASKS]);
    const analyzer = inOneThread(toxicityProfile);
    const finding = analyzer.analyze(
      prepareCompound(rdkit, {
        index: 1,
        line: 2,
        candidateId: "C1",
        name: null,
        smiles: "c1ccccc1O",
        metadata: {},
      }),
    );
    assert.equal(finding.tox21_fingerprint_model?.model, "tox21_logreg_morgan2");
    const summary = analyzer.finish();
    assert.equal(summary.tox21_fingerprint_model.tasks.length, 12);
    assert.equal(summary.tox21_fingerprint_model.moleculenet_graphconv_mean_test_roc_auc, 0.829);
  });
});
