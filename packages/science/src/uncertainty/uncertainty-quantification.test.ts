import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { CONFORMAL_LEVELS, delaneyOutOfFold } from "./calibration-data.ts";
import { conformalHalfWidth } from "./conformal.ts";
import { conformalCalibration } from "./conformal-calibration.ts";
import { uncertaintyQuantification } from "./uncertainty-quantification.ts";

describe("uncertainty_quantification", () => {
  it("every trained-model estimate gets its domain; solubility gets nested 80%/90% intervals", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(uncertaintyQuantification);
    // Naphthalene is in Delaney's set: inside the box, Tanimoto 1 to the solubility reference set.
    const naphthalene = analyzer.analyze(prepareCompound(rdkit, row(1, "c1ccc2ccccc2c1")));
    const sol = naphthalene.estimates?.["solubility_assessment.log_s"];
    assert.ok(sol);
    assert.equal(sol.in_descriptor_box, true);
    assert.equal(sol.nearest_tanimoto, 1);
    assert.equal(sol.in_domain, true);
    assert.ok(sol.value !== null && sol.interval_80 !== null && sol.interval_90 !== null);
    assert.ok(sol.interval_80[0] < sol.value && sol.value < sol.interval_80[1]);
    assert.ok(sol.interval_90[0] < sol.interval_80[0] && sol.interval_80[1] < sol.interval_90[1]);
    assert.deepEqual(naphthalene.out_of_domain, []);
    // A 60-carbon alkane lies outside Delaney's descriptor box (and far from every training set).
    const alkane = analyzer.analyze(prepareCompound(rdkit, row(2, "C".repeat(60))));
    const alkaneSol = alkane.estimates?.["solubility_assessment.log_s"];
    assert.equal(alkaneSol?.in_descriptor_box, false);
    assert.ok(alkaneSol?.outside_box.includes("mw"));
    assert.ok(alkane.out_of_domain?.includes("solubility_assessment.log_s"));
    // issue 24 item 1: out of the domain no value or interval is given as a finding
    assert.equal(alkaneSol?.value, null);
    assert.equal(alkaneSol?.interval_80, null);
    const bad = analyzer.analyze(prepareCompound(rdkit, row(3, "C1CC")));
    assert.equal(bad.status, "not_assessed");
    assert.equal(bad.estimates, null);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 2);
    assert.equal(summary.out_of_domain["solubility_assessment.log_s"], 1);
    assert.match(summary.method.validation, /CHEMBL2321810/);
  });

  it("the solubility half-widths are the conformal quantiles of the adopted model's scaffold-held-out residuals", async () => {
    const rdkit = await loadRDKit();
    const { residuals } = delaneyOutOfFold(rdkit);
    const recorded = conformalCalibration().solubility.half_width;
    for (const level of CONFORMAL_LEVELS)
      assert.ok(Math.abs(conformalHalfWidth(residuals, level) - (recorded[String(level)] ?? -1)) < 1e-6);
  });
});
