import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { parseSmiles, type RDKit } from "../rdkit.ts";
import { fitKernel, predictKernel } from "../solubility/fit-regression.ts";
import { solubilityCv } from "../solubility/solubility-cv.ts";
import { descriptorVector, solubilityDescriptors } from "../solubility/solubility-descriptors.ts";
import { solubilityModels } from "../solubility/solubility-models.ts";
import { chemblSeries } from "./chembl-series.ts";
import { conformalHalfWidth, type Fit } from "./conformal.ts";

/** Nominal coverage levels of the reported intervals. */
export const CONFORMAL_LEVELS = [0.8, 0.9] as const;
/** Outer folds and seed of the coverage check on CHEMBL2321810. */
export const CHEMBL_FOLDS = 5;
export const CHEMBL_SEED = 2321810;
export const CALIBRATION_FRACTION = 0.25;

function descriptorRows(rdkit: RDKit, smiles: readonly string[]): number[][] {
  return smiles.map((s) => {
    const parsed = parseSmiles(rdkit, s);
    if ("error" in parsed) throw new Error(`${s}: ${parsed.error}`);
    try {
      return descriptorVector(solubilityDescriptors(rdkit, parsed.mol));
    } finally {
      parsed.mol.delete();
    }
  });
}

/**
 * The kernel ridge regression the conformal method is validated with on CHEMBL2321810: Gaussian
 * kernel on the 14 solubility descriptors with the γ and λ the Delaney-trained solubility model had
 * chosen (issue 24); kept fixed since the solubility model moved to AqSolDB (issue 36 item 9), so
 * the validation of the method does not move with it.
 */
export const VALIDATION_KERNEL = { gamma: 0.1, lambda: 0.1 } as const;

export function validationKernelFit(): Fit {
  const { gamma, lambda } = VALIDATION_KERNEL;
  return (rows, y) => {
    const model = fitKernel(rows, y, gamma, lambda);
    return (row) => predictKernel(model, row).value;
  };
}

/**
 * The adopted solubility model's out-of-fold residuals on AqSolDB's scaffold CV (issue 24 item 4:
 * intervals calibrated on scaffold-held-out compounds), of the compounds inside the model's domain
 * (their nearest training-fold Tanimoto at or above the floor), with their folds. The deployed
 * model is refitted on all data (cross-conformal, Vovk 2015).
 */
export function solubilityOutOfFold() {
  const models = solubilityModels();
  const cv = solubilityCv();
  const at = cv.candidates.indexOf(models.adopted);
  const inDomain = cv.compounds.filter((c) => c.nearest >= models.domain.min_tanimoto);
  return {
    residuals: inDomain.map((c) => c.log_s - (c.predicted[at] ?? 0)),
    folds: inDomain.map((c) => c.fold),
    k: models.scaffold_cv.folds,
    seed: models.scaffold_cv.seed,
    compounds: cv.compounds.length,
  };
}

/**
 * How often the intervals hold on compounds they were not calibrated on: per level and per fold,
 * the half-width from the other folds' in-domain residuals, checked on the held-out fold's
 * in-domain compounds; pooled over the folds.
 */
export function heldOutFoldCoverage(levels: readonly number[]) {
  const { residuals, folds, k } = solubilityOutOfFold();
  return levels.map((level) => {
    let inside = 0;
    for (let f = 0; f < k; f++) {
      const h = conformalHalfWidth(
        residuals.filter((_, i) => folds[i] !== f),
        level,
      );
      inside += residuals.filter((r, i) => folds[i] === f && Math.abs(r) <= h).length;
    }
    return { level, in_domain: residuals.length, coverage_in_domain: inside / Math.max(1, residuals.length) };
  });
}

/** CHEMBL2321810 as descriptor rows and activities, with its outer folds. */
export function chemblRows(rdkit: RDKit) {
  const series = chemblSeries();
  const rows = descriptorRows(
    rdkit,
    series.map((c) => c.smiles),
  );
  return {
    rows,
    y: series.map((c) => c.activity),
    folds: assignFolds(rows.length, CHEMBL_FOLDS, CHEMBL_SEED),
  };
}
