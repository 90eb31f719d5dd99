import { readDataFile } from "../data/read-data-file.ts";
import { encodeOnBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { assignGroupFolds } from "../numeric/group-folds.ts";
import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { parseSmiles, type RDKit } from "../rdkit.ts";
import { scaffoldGroupKeys } from "../scaffold/scaffold-groups.ts";
import { parseDelaneyCsv } from "../solubility/delaney-set.ts";
import { parseExternalSolubilityCsv } from "../solubility/external-solubility-set.ts";
import { crossValidate, fitKernel, predictKernel } from "../solubility/fit-regression.ts";
import { descriptorVector, solubilityDescriptors } from "../solubility/solubility-descriptors.ts";
import { predictSolubility, solubilityModels } from "../solubility/solubility-models.ts";
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

/**
 * Delaney's rows as the solubility model sees them, and the adopted model's out-of-fold residuals
 * on the scaffold-grouped folds it was chosen by (issue 24 item 4: intervals calibrated on
 * scaffold-held-out compounds, so they do not assume a new compound shares a training scaffold).
 * The kernel's γ and λ are those chosen on all the data (cross-conformal, Vovk 2015).
 */
export function delaneyOutOfFold(rdkit: RDKit) {
  const models = solubilityModels();
  if (models.adopted !== "kernel_ridge_rdkit14")
    throw new Error(`calibration is written for the kernel model; ${models.adopted} was adopted: extend it`);
  const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
  const smiles = set.map((c) => c.smiles);
  const rows = descriptorRows(rdkit, smiles);
  const y = set.map((c) => c.measured);
  const folds = assignGroupFolds(
    scaffoldGroupKeys(rdkit, smiles),
    models.scaffold_cv.folds,
    models.scaffold_cv.seed,
  );
  const predicted = crossValidate(rows, y, folds, solubilityKernelFit());
  return {
    smiles,
    residuals: predicted.map((p, i) => (y[i] ?? 0) - p),
    folds: models.scaffold_cv.folds,
    seed: models.scaffold_cv.seed,
  };
}

/**
 * How often the intervals hold on the external compounds (Huuskonen's, not in Delaney's set):
 * per level, the fraction of in-domain compounds (and of all) whose measured log S lies within the
 * adopted model's value ± the half-width.
 */
export function externalCoverage(
  rdkit: RDKit,
  halfWidth: Readonly<Record<string, number>>,
  levels: readonly number[],
) {
  const models = solubilityModels();
  const set = parseExternalSolubilityCsv(readDataFile("huuskonen-external-solubility.csv"));
  const predictions = set.map((c) => {
    const parsed = parseSmiles(rdkit, c.smiles);
    if ("error" in parsed) throw new Error(`${c.smiles}: ${parsed.error}`);
    try {
      return predictSolubility(solubilityDescriptors(rdkit, parsed.mol));
    } finally {
      parsed.mol.delete();
    }
  });
  const value = (p: (typeof predictions)[number]) =>
    ({ esol_published_crippen: p.published, esol_refit_rdkit: p.refit, kernel_ridge_rdkit14: p.kernel })[
      models.adopted
    ];
  return levels.map((level) => {
    const h = halfWidth[String(level)] ?? Number.POSITIVE_INFINITY;
    const inside = predictions.map((p, i) => Math.abs(value(p) - (set[i]?.logS ?? 0)) <= h);
    const inDomain = predictions.map((p) => p.in_domain);
    const share = (keep: (i: number) => boolean) => {
      const kept = inside.filter((_, i) => keep(i));
      return kept.filter(Boolean).length / Math.max(1, kept.length);
    };
    return {
      level,
      in_domain: inDomain.filter(Boolean).length,
      coverage_in_domain: share((i) => inDomain[i] === true),
      all: set.length,
      coverage_all: share(() => true),
    };
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

export function delaneyBits(rdkit: RDKit, smiles: readonly string[]): string[] {
  return smiles.map((s) => {
    const bits = parentOnBits(rdkit, s);
    if (bits === null) throw new Error(`Delaney: RDKit refused ${s}`);
    return encodeOnBits(bits);
  });
}
