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
  // Naphthalene: log S −4.31 in AqSolDB, "moderately soluble" in SwissADME's classes (−6 < log S ≤ −4).
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "c1ccc2ccccc2c1")));
  assert.equal(finding.model, "mlp64_morgan2_rdkit2d");
  assert.ok(Math.abs((finding.log_s ?? 0) - -4.31) < 0.3, `log S ${finding.log_s}`);
  assert.equal(finding.solubility_class, "moderately");
  assert.equal(finding.in_domain, true);
  assert.equal(finding.nearest_tanimoto, 1);
  assert.deepEqual(Object.keys(finding.estimates ?? {}).sort(), [
    "esol_published_crippen",
    "esol_refit_rdkit",
    "mlp64_morgan2_rdkit2d",
    "ridge_rdkit2d",
  ]);
  const bad = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC")));
  assert.equal(bad.status, "not_assessed");
  assert.equal(bad.log_s, null);
  const summary = analyzer.finish();
  assert.equal(summary.model_used, "mlp64_morgan2_rdkit2d");
  // the adopted model is the one with the lowest scaffold-grouped CV error (issue 24 item 4)
  const cv = summary.validation.scaffold_cv_rmse;
  for (const [name, rmse] of Object.entries(cv))
    assert.ok(
      (cv[summary.model_used]?.all ?? Number.POSITIVE_INFINITY) <= rmse.all,
      `${summary.model_used} vs ${name}`,
    );
  assert.ok((cv[summary.model_used]?.all ?? 0) < (cv.constant?.all ?? 0), "beats the constant predictor");
  assert.match(summary.method.citations[0] ?? "", /AqSolDB/);
  // the card states the grouping the headline figure uses (issue 36 item 9)
  assert.match(summary.method.validation, /every acyclic parent in one group/);
});

test("cubane, far outside AqSolDB's chemistry, gets no log S, no class, and its raw estimates kept for audit (issue 24 item 1)", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(solubilityAssessment);
  // nearest AqSolDB parent at Tanimoto 0.14 (Morgan radius 2)
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "C12C3C4C1C5C2C3C45")));
  assert.equal(finding.status, "assessed");
  assert.equal(finding.in_domain, false);
  assert.equal(finding.log_s, null);
  assert.equal(finding.solubility_class, null);
  assert.equal(finding.estimates, null);
  assert.ok(finding.raw_out_of_domain_estimates);
  assert.match(finding.reason ?? "", /outside the solubility model's domain/);
  assert.equal(analyzer.finish().out_of_domain, 1);
});
