import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { CONFORMAL_LEVELS, heldOutFoldCoverage, solubilityOutOfFold } from "./calibration-data.ts";
import { conformalHalfWidth } from "./conformal.ts";
import { conformalCalibration } from "./conformal-calibration.ts";
import { uncertaintyQuantification } from "./uncertainty-quantification.ts";

describe("uncertainty_quantification", () => {
  it("every trained-model estimate gets its domain; solubility gets nested 80%/90% intervals", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(uncertaintyQuantification);
    // Naphthalene is in AqSolDB: Tanimoto 1 to the solubility model's training parents.
    const naphthalene = analyzer.analyze(prepareCompound(rdkit, row(1, "c1ccc2ccccc2c1")));
    const sol = naphthalene.estimates?.["solubility_assessment.log_s"];
    assert.ok(sol);
    assert.equal(sol.nearest_tanimoto, 1);
    assert.equal(sol.in_domain, true);
    assert.ok(sol.value !== null && sol.interval_80 !== null && sol.interval_90 !== null);
    assert.ok(sol.interval_80[0] < sol.value && sol.value < sol.interval_80[1]);
    assert.ok(sol.interval_90[0] < sol.interval_80[0] && sol.interval_80[1] < sol.interval_90[1]);
    assert.deepEqual(naphthalene.out_of_domain, []);
    // Cubane is far from every solubility training parent (Tanimoto 0.14).
    const far = analyzer.analyze(prepareCompound(rdkit, row(2, "C12C3C4C1C5C2C3C45")));
    const farSol = far.estimates?.["solubility_assessment.log_s"];
    assert.equal(farSol?.in_domain, false);
    assert.ok(far.out_of_domain?.includes("solubility_assessment.log_s"));
    // issue 24 item 1: out of the domain no value or interval is given as a finding
    assert.equal(farSol?.value, null);
    assert.equal(farSol?.interval_80, null);
    const bad = analyzer.analyze(prepareCompound(rdkit, row(3, "C1CC")));
    assert.equal(bad.status, "not_assessed");
    assert.equal(bad.estimates, null);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 2);
    assert.equal(summary.out_of_domain["solubility_assessment.log_s"], 1);
    assert.match(summary.method.validation, /CHEMBL2321810/);
  });

  it("the solubility half-widths are the conformal quantiles of the adopted model's in-domain scaffold-held-out residuals, and hold on held-out folds", () => {
    const { residuals } = solubilityOutOfFold();
    const recorded = conformalCalibration().solubility;
    for (const level of CONFORMAL_LEVELS)
      assert.ok(
        Math.abs(conformalHalfWidth(residuals, level) - (recorded.half_width[String(level)] ?? -1)) < 1e-6,
      );
    heldOutFoldCoverage(CONFORMAL_LEVELS).forEach((r, i) => {
      const kept = recorded.held_out_fold_coverage[i];
      assert.ok(Math.abs(r.coverage_in_domain - (kept?.coverage_in_domain ?? -1)) < 1e-6, "recorded figure");
      // calibrated on other folds, each held-out fold's coverage stays within 3 points of nominal
      assert.ok(
        Math.abs(r.coverage_in_domain - r.level) <= 0.03,
        `coverage ${r.coverage_in_domain} at ${r.level}`,
      );
    });
  });
});
