// Calibrates the conformal intervals of the solubility model and checks their coverage, writing
// data/conformal-calibration.json: the half-widths at 80% and 90% read from the adopted model's
// out-of-fold residuals on Delaney's set (its scaffold-grouped folds), their coverage on the
// external compounds (Huuskonen's, not in Delaney's set), the Morgan bits of Delaney's
// parents (the model's reference set for the Tanimoto domain), and the empirical coverage of
// split-conformal and cross-conformal intervals on held-out folds of ChEMBL series CHEMBL2321810.
// Deterministic. Run: node packages/science/scripts/calibrate-conformal.ts   (a few minutes)
import { writeFileSync } from "node:fs";
import { assignFolds } from "../src/numeric/seeded-shuffle.ts";
import { loadRDKit } from "../src/rdkit.ts";
import {
  CALIBRATION_FRACTION,
  CHEMBL_FOLDS,
  CHEMBL_SEED,
  CONFORMAL_LEVELS,
  chemblRows,
  delaneyBits,
  delaneyOutOfFold,
  externalCoverage,
  solubilityKernelFit,
} from "../src/uncertainty/calibration-data.ts";
import {
  conformalHalfWidth,
  crossConformalCoverage,
  splitConformalCoverage,
} from "../src/uncertainty/conformal.ts";

const rdkit = await loadRDKit();
const round = (v: number) => Number(v.toPrecision(8));
const delaney = delaneyOutOfFold(rdkit);
const chembl = chemblRows(rdkit);
const fit = solubilityKernelFit();
const split = splitConformalCoverage(
  chembl.rows,
  chembl.y,
  chembl.folds,
  fit,
  CONFORMAL_LEVELS,
  CALIBRATION_FRACTION,
  CHEMBL_SEED,
);
const cross = crossConformalCoverage(
  chembl.rows,
  chembl.y,
  chembl.folds,
  (n, f) => assignFolds(n, 5, CHEMBL_SEED + 100 + f),
  fit,
  CONFORMAL_LEVELS,
);
const halfWidth = Object.fromEntries(
  CONFORMAL_LEVELS.map((level) => [String(level), round(conformalHalfWidth(delaney.residuals, level))]),
);
const external = externalCoverage(rdkit, halfWidth, CONFORMAL_LEVELS);
const out = {
  generated_by: "packages/science/scripts/calibrate-conformal.ts",
  rdkit_version: rdkit.version(),
  solubility: {
    model: "kernel_ridge_rdkit14",
    calibration: `out-of-fold residuals of delaney-processed.csv (${delaney.residuals.length} compounds, ${delaney.folds}-fold CV grouped by Bemis–Murcko scaffold, seed ${delaney.seed})`,
    half_width: halfWidth,
    external_coverage: external.map((r) => ({
      ...r,
      coverage_in_domain: round(r.coverage_in_domain),
      coverage_all: round(r.coverage_all),
    })),
    reference_bits: delaneyBits(rdkit, delaney.smiles),
  },
  validation_chembl2321810: {
    folds: CHEMBL_FOLDS,
    seed: CHEMBL_SEED,
    model: "kernel ridge on the 14 solubility descriptors, the solubility model's γ and λ, refitted per fold",
    split_conformal: split.map((r) => ({
      ...r,
      coverage: round(r.coverage),
      mean_half_width: round(r.mean_half_width),
    })),
    cross_conformal: cross.map((r) => ({
      ...r,
      coverage: round(r.coverage),
      mean_half_width: round(r.mean_half_width),
    })),
  },
};
writeFileSync(new URL("../data/conformal-calibration.json", import.meta.url), `${JSON.stringify(out)}\n`);
console.log(JSON.stringify({ half_width: out.solubility.half_width, external, split, cross }));
