import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { solubilityAssessment } from "./solubility-assessment.ts";

test("each compound gets log S from the named model, its class, its domain and every estimate", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(solubilityAssessment);
  // Naphthalene: measured log S −3.6 (Delaney's set, "Napthalene"), "soluble" in SwissADME's classes.
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "c1ccc2ccccc2c1")));
  assert.equal(finding.model, "kernel_ridge_rdkit14");
  assert.ok(Math.abs((finding.log_s ?? 0) - -3.6) < 0.5, `log S ${finding.log_s}`);
  assert.equal(finding.solubility_class, "soluble");
  assert.equal(finding.in_domain, true);
  assert.deepEqual(Object.keys(finding.estimates ?? {}).sort(), [
    "esol_published_crippen",
    "esol_refit_rdkit",
    "kernel_ridge_rdkit14",
  ]);
  const bad = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC")));
  assert.equal(bad.status, "not_assessed");
  assert.equal(bad.log_s, null);
  const summary = analyzer.finish();
  assert.equal(summary.model_used, "kernel_ridge_rdkit14");
  // the adopted model is the one with the lowest scaffold-grouped CV error (issue 24 item 4)
  const cv = summary.validation.scaffold_cv_rmse;
  for (const [name, rmse] of Object.entries(cv))
    assert.ok(
      (cv[summary.model_used] ?? Number.POSITIVE_INFINITY) <= rmse,
      `${summary.model_used} vs ${name}`,
    );
  assert.ok((cv[summary.model_used] ?? 0) < (cv.constant ?? 0), "beats the constant predictor");
  assert.match(summary.method.citations[0] ?? "", /Delaney/);
});

test("a peptide far outside Delaney's chemistry gets no log S, no class, and its raw estimates kept for audit (issue 24 item 1)", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(solubilityAssessment);
  // dodeca-alanine, MW 872: the earlier model returned the training mean here, labelled "soluble"
  const peptide = `${"N[C@@H](C)C(=O)".repeat(12)}O`;
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, peptide)));
  assert.equal(finding.status, "assessed");
  assert.equal(finding.in_domain, false);
  assert.equal(finding.log_s, null);
  assert.equal(finding.solubility_class, null);
  assert.equal(finding.estimates, null);
  assert.ok(finding.raw_out_of_domain_estimates);
  assert.match(finding.reason ?? "", /outside the solubility model's domain/);
  assert.equal(analyzer.finish().out_of_domain, 1);
});
