import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { loadRDKit } from "../rdkit.ts";
import {
  CALIBRATION_FRACTION,
  CHEMBL_SEED,
  CONFORMAL_LEVELS,
  chemblRows,
  validationKernelFit,
} from "./calibration-data.ts";
import { conformalHalfWidth, crossConformalCoverage, splitConformalCoverage } from "./conformal.ts";
import { conformalCalibration } from "./conformal-calibration.ts";

describe("conformal intervals", () => {
  it("the half-width is the ⌈(n+1)·level⌉-th smallest absolute residual (Lei et al. 2018)", () => {
    const residuals = [-0.1, 0.2, -0.3, 0.4, -0.5, 0.6, -0.7, 0.8, -0.9];
    assert.equal(conformalHalfWidth(residuals, 0.8), 0.8); // ⌈10·0.8⌉ = 8th
    assert.equal(conformalHalfWidth(residuals, 0.9), 0.9); // 9th
    assert.equal(conformalHalfWidth(residuals, 0.95), Number.POSITIVE_INFINITY); // 10th of 9
  });

  it("on held-out folds of ChEMBL series CHEMBL2321810 coverage is within 3 points of 80% and 90%", async () => {
    const rdkit = await loadRDKit();
    const { rows, y, folds } = chemblRows(rdkit);
    assert.equal(rows.length, 1017);
    const fit = validationKernelFit();
    const split = splitConformalCoverage(
      rows,
      y,
      folds,
      fit,
      CONFORMAL_LEVELS,
      CALIBRATION_FRACTION,
      CHEMBL_SEED,
    );
    const cross = crossConformalCoverage(
      rows,
      y,
      folds,
      (n, f) => assignFolds(n, 5, CHEMBL_SEED + 100 + f),
      fit,
      CONFORMAL_LEVELS,
    );
    const recorded = conformalCalibration().validation_chembl2321810;
    for (const [results, kept] of [
      [split, recorded.split_conformal],
      [cross, recorded.cross_conformal],
    ] as const)
      results.forEach((r, i) => {
        assert.equal(r.held_out, 1017);
        assert.ok(Math.abs(r.coverage - r.level) <= 0.03, `coverage ${r.coverage} at ${r.level}`);
        assert.ok(Math.abs(r.coverage - (kept[i]?.coverage ?? -1)) < 1e-6, "recorded figure is recomputed");
      });
  });
});
