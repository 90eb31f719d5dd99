// Calibrates the conformal intervals of the solubility model and checks their coverage, writing
// data/conformal-calibration.json: the half-widths at 80% and 90% read from the adopted model's
// in-domain out-of-fold residuals on AqSolDB's scaffold CV (data/solubility-cv.json), their
// coverage on each held-out fold when calibrated on the others, and the empirical coverage of
// split-conformal and cross-conformal intervals on held-out folds of ChEMBL series CHEMBL2321810.
// Deterministic. Run: node packages/science/scripts/calibrate-conformal.ts   (a few minutes)
import { writeFileSync } from "node:fs";
import { assignFolds } from "../src/numeric/seeded-shuffle.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { solubilityModels } from "../src/solubility/solubility-models.ts";
import {
  CALIBRATION_FRACTION,
  CHEMBL_FOLDS,
  CHEMBL_SEED,
  CONFORMAL_LEVELS,
  chemblRows,
  heldOutFoldCoverage,
  solubilityOutOfFold,
  VALIDATION_KERNEL,
  validationKernelFit,
} from "../src/uncertainty/calibration-data.ts";
import {
  conformalHalfWidth,
  crossConformalCoverage,
  splitConformalCoverage,
} from "../src/uncertainty/conformal.ts";

const rdkit = await loadRDKit();
const round = (v: number) => Number(v.toPrecision(8));
const solubility = solubilityOutOfFold();
const chembl = chemblRows(rdkit);
const fit = validationKernelFit();
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
  CONFORMAL_LEVELS.map((level) => [String(level), round(conformalHalfWidth(solubility.residuals, level))]),
);
const heldOut = heldOutFoldCoverage(CONFORMAL_LEVELS);
const out = {
  generated_by: "packages/science/scripts/calibrate-conformal.ts",
  rdkit_version: rdkit.version(),
  solubility: {
    model: solubilityModels().adopted,
    calibration: `out-of-fold residuals of the ${solubility.residuals.length} in-domain parents of aqsoldb-train.csv's ${solubility.compounds} (${solubility.k}-fold CV grouped by Bemis–Murcko scaffold, acyclic parents one group, seed ${solubility.seed})`,
    half_width: halfWidth,
    held_out_fold_coverage: heldOut.map((r) => ({ ...r, coverage_in_domain: round(r.coverage_in_domain) })),
  },
  validation_chembl2321810: {
    folds: CHEMBL_FOLDS,
    seed: CHEMBL_SEED,
    model: `kernel ridge on the 14 solubility descriptors (γ ${VALIDATION_KERNEL.gamma}, λ ${VALIDATION_KERNEL.lambda}, the Delaney-trained solubility model's), refitted per fold`,
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
console.log(JSON.stringify({ half_width: out.solubility.half_width, heldOut, split, cross }));
