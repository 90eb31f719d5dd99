import { readDataFile } from "../data/read-data-file.ts";
import { encodeOnBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { parseSmiles, type RDKit } from "../rdkit.ts";
import { parseDelaneyCsv } from "../solubility/delaney-set.ts";
import { crossValidate, fitKernel, predictKernel } from "../solubility/fit-regression.ts";
import { descriptorVector, solubilityDescriptors } from "../solubility/solubility-descriptors.ts";
import { solubilityModels } from "../solubility/solubility-models.ts";
import { chemblSeries } from "./chembl-series.ts";
import type { Fit } from "./conformal.ts";

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

/** The solubility kernel model's fit, with the γ and λ of `solubility-models.json`. */
export function solubilityKernelFit(): Fit {
  const { gamma, lambda } = solubilityModels().kernel;
  return (rows, y) => {
    const model = fitKernel(rows, y, gamma, lambda);
    return (row) => predictKernel(model, row).value;
  };
}

/** Delaney's rows as the solubility model sees them, and its out-of-fold residuals (its own folds). */
export function delaneyOutOfFold(rdkit: RDKit) {
  const models = solubilityModels();
  const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
  const rows = descriptorRows(
    rdkit,
    set.map((c) => c.smiles),
  );
  const y = set.map((c) => c.measured);
  const predicted = crossValidate(
    rows,
    y,
    assignFolds(rows.length, models.folds, models.seed),
    solubilityKernelFit(),
  );
  return {
    smiles: set.map((c) => c.smiles),
    residuals: predicted.map((p, i) => (y[i] ?? 0) - p),
    folds: models.folds,
    seed: models.seed,
  };
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

export function delaneyBits(rdkit: RDKit, smiles: readonly string[]): string[] {
  return smiles.map((s) => {
    const bits = parentOnBits(rdkit, s);
    if (bits === null) throw new Error(`Delaney: RDKit refused ${s}`);
    return encodeOnBits(bits);
  });
}
