import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { readDataFile } from "../data/read-data-file.ts";
import { inOneThread } from "../define-module.ts";
import { rocAuc } from "../fingerprint/roc-auc.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { parseTox21, TOX21_TASKS } from "../toxicity/tox21-set.ts";
import { GCN_DOCS_BLOCK, gcnFiguresMarkdown } from "./gcn-figures-markdown.ts";
import { readGcnModelFile } from "./gcn-model.ts";
import { gcnProbabilities, gcnToxicity, readGcnFigures } from "./gcn-toxicity.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);

function row(index: number, smiles: string) {
  return { index, line: index + 1, candidateId: `C${index}`, name: null, smiles, metadata: {} };
}

describe("gcn_toxicity (issue 26 item 2)", () => {
  it("the model and figures name tox21.csv by the sha256 of its bytes, the twelve assays and the seed", () => {
    const sha = createHash("sha256")
      .update(readFileSync(new URL("../../data/tox21.csv", import.meta.url)))
      .digest("hex");
    const model = readGcnModelFile();
    const figures = readGcnFigures();
    assert.equal(model.training_data_sha256, sha);
    assert.equal(figures.training_data_sha256, sha);
    assert.deepEqual(model.tasks, [...TOX21_TASKS]);
    assert.deepEqual(figures.tasks, [...TOX21_TASKS]);
    assert.equal(model.seed, figures.seed);
    assert.equal(model.model, figures.model);
  });

  it("the random-split test ROC-AUC of every assay recomputes from the checked-in weights and the runner's parents", async () => {
    const rdkit = await loadRDKit();
    const figures = readGcnFigures();
    const split = JSON.parse(readDataFile("tox21-fingerprint-model.json")).row_split as string;
    const rows = parseTox21(readDataFile("tox21.csv"));
    const test = rows.flatMap((r, i) => {
      if (split[i] !== "s") return [];
      const compound = prepareCompound(rdkit, row(i + 1, r.smiles));
      return compound.ok ? [{ labels: r.labels, p: gcnProbabilities(compound) }] : [];
    });
    TOX21_TASKS.forEach((task, t) => {
      const labelled = test.filter((r) => r.labels[t] !== null);
      const auc = rocAuc(
        labelled.map((r) => r.p[t] ?? 0),
        labelled.map((r) => r.labels[t] ?? 0),
      );
      const recorded = figures.splits.random.gcn.test_roc_auc[t] ?? 0;
      assert.ok(Math.abs(auc - recorded) < 1e-4, `${task}: recorded ${recorded}, recomputed ${auc}`);
    });
  });

  it("reports twelve probabilities, the domain, the model id and its data's sha256; none outside the organic classes", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(gcnToxicity);
    const model = readGcnModelFile();
    // Row 2 of tox21.csv, a training compound of the random split.
    const known = analyzer.analyze(prepareCompound(rdkit, row(1, "CCN1C(=O)NC(c2ccccc2)C1=O")));
    assert.equal(known.status, "assessed");
    assert.equal(known.model, model.model);
    assert.equal(known.training_data_sha256, model.training_data_sha256);
    assert.deepEqual(Object.keys(known.probabilities ?? {}), [...TOX21_TASKS]);
    for (const p of Object.values(known.probabilities ?? {})) assert.ok(p > 0 && p < 1);
    assert.equal(known.max_tanimoto, 1);
    assert.equal(known.in_domain, true);
    const metal = analyzer.analyze(prepareCompound(rdkit, row(2, "[Fe+2].[Cl-].[Cl-]")));
    assert.equal(metal.in_domain, false);
    assert.deepEqual(metal.probabilities, {});
    assert.match(metal.domain_reason ?? "", /^out_of_domain: compound_class/);
    const broken = analyzer.analyze(prepareCompound(rdkit, row(3, "C1CC")));
    assert.equal(broken.status, "not_assessed");
    assert.equal(broken.probabilities, null);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 2);
    assert.equal(summary.not_assessed, 1);
    assert.equal(summary.validation.moleculenet_graphconv_mean_test_roc_auc, 0.829);
    assert.equal(Object.keys(summary.validation.use_per_assay).length, 12);
  });

  it("docs/science.md carries the figures block generated from the checked-in figures file (UPDATE_SCIENCE_DOCS=1 rewrites it)", () => {
    assertGeneratedBlock(
      DOCS,
      GCN_DOCS_BLOCK,
      "packages/science/src/gnn/gcn-toxicity.validation.test.ts",
      gcnFiguresMarkdown(readGcnFigures()),
    );
  });
});
