import assert from "node:assert/strict";
import { test } from "node:test";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { solubilityAssessment } from "./solubility-assessment.ts";

const row = (index: number, smiles: string) => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles,
  metadata: {},
});

test("each compound gets log S from the named model, its class, its domain and every estimate", async () => {
  const rdkit = await loadRDKit();
  const analyzer = solubilityAssessment.createAnalyzer();
  // Naphthalene: measured log S −3.6 (Delaney's set, "Napthalene"), "soluble" in SwissADME's classes.
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "c1ccc2ccccc2c1")));
  assert.equal(finding.esol_model, "kernel_ridge_rdkit14");
  assert.ok(Math.abs((finding.esol_logs ?? 0) - -3.6) < 0.5, `log S ${finding.esol_logs}`);
  assert.equal(finding.solubility_class, "soluble");
  assert.equal(finding.in_domain, true);
  assert.deepEqual(Object.keys(finding.estimates ?? {}).sort(), [
    "esol_published_crippen",
    "esol_refit_rdkit",
    "kernel_ridge_rdkit14",
  ]);
  const bad = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC")));
  assert.equal(bad.status, "not_assessed");
  assert.equal(bad.esol_logs, null);
  const summary = analyzer.finish();
  assert.equal(summary.model_used, "kernel_ridge_rdkit14");
  assert.ok(summary.validation.kernel_cv_rmse < 0.91);
  assert.match(summary.method.citations[0] ?? "", /Delaney/);
});
