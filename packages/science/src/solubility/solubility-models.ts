import { readDataFile } from "../data/read-data-file.ts";
import { lastParentCache } from "../parent/last-parent-cache.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { ESOL_TERMS, publishedEsol } from "./esol.ts";
import { type KernelModel, predictKernel, predictLinear } from "./fit-regression.ts";
import {
  descriptorVector,
  SOLUBILITY_DESCRIPTORS,
  type SolubilityDescriptors,
  solubilityDescriptors,
} from "./solubility-descriptors.ts";

/** `data/solubility-models.json`, written by `scripts/fit-solubility-models.ts`. */
export interface SolubilityModelFile {
  readonly generated_by: string;
  readonly training_set: string;
  readonly rdkit_version: string;
  readonly seed: number;
  readonly folds: number;
  readonly descriptors: readonly string[];
  /** The candidate with the lowest scaffold-grouped CV RMSE: the model the report shows. */
  readonly adopted: SolubilityModelName;
  readonly scaffold_cv: {
    readonly grouping: string;
    readonly folds: number;
    readonly seed: number;
    readonly scaffolds: number;
    /** Per candidate and the constant predictor (`constant`). */
    readonly figures: Readonly<Record<string, RegressionFigures>>;
  };
  readonly external: {
    readonly set: string;
    readonly in_domain: number;
    readonly figures: Readonly<
      Record<
        string,
        {
          readonly all: RegressionFigures;
          readonly in_domain: RegressionFigures;
          readonly out_of_domain: RegressionFigures;
        }
      >
    >;
  };
  readonly published: {
    readonly rmse_vs_measured: number;
    readonly rmse_vs_paper_esol: number;
    readonly r2_vs_paper_esol: number;
  };
  readonly refit: {
    readonly terms: readonly string[];
    readonly weights: readonly number[];
    readonly cv_rmse: number;
  };
  readonly kernel: KernelModel & {
    readonly cv_rmse: number;
    readonly nested_cv_rmse: number;
    readonly grid: { readonly gamma: readonly number[]; readonly lambda: readonly number[] };
    /** 95th percentile of the training rows' nearest-neighbour distances: the domain limit. */
    readonly domain_distance: number;
    readonly range_min: readonly number[];
    readonly range_max: readonly number[];
  };
}

export interface RegressionFigures {
  readonly rmse: number;
  readonly mae: number;
  readonly r2: number;
}

let cached: SolubilityModelFile | null = null;

export function solubilityModels(): SolubilityModelFile {
  cached ??= JSON.parse(readDataFile("solubility-models.json")) as SolubilityModelFile;
  return cached;
}

/** Which fit produced a number (named in every output). */
export type SolubilityModelName = "esol_published_crippen" | "esol_refit_rdkit" | "kernel_ridge_rdkit14";

export interface SolubilityPrediction {
  readonly published: number;
  readonly refit: number;
  readonly kernel: number;
  /** Inside the descriptor box of the training set and near enough to a training compound. */
  readonly in_domain: boolean;
  readonly nearest_distance: number;
}

/** The three solubility estimates of one molecule and the kernel model's applicability domain. */
export function predictSolubility(d: SolubilityDescriptors): SolubilityPrediction {
  const models = solubilityModels();
  if (models.descriptors.join() !== SOLUBILITY_DESCRIPTORS.join())
    throw new Error("solubility-models.json was fitted on other descriptors: rerun the fitting script");
  const row = descriptorVector(d);
  const kernel = predictKernel(models.kernel, row);
  const inBox = row.every(
    (v, j) =>
      v >= (models.kernel.range_min[j] ?? Number.NEGATIVE_INFINITY) &&
      v <= (models.kernel.range_max[j] ?? Number.POSITIVE_INFINITY),
  );
  return {
    published: publishedEsol(d),
    refit: predictLinear(
      models.refit.weights,
      ESOL_TERMS.map((term) => d[term]),
    ),
    kernel: kernel.value,
    in_domain: inBox && kernel.nearest <= models.kernel.domain_distance,
    nearest_distance: kernel.nearest,
  };
}

const lastPrediction = lastParentCache<SolubilityPrediction>();

/** {@link predictSolubility} of a parent molecule, computed once when two modules ask for the same parent. */
export function predictParentSolubility(rdkit: RDKit, parent: Mol): SolubilityPrediction {
  return lastPrediction(parent.get_smiles(), () => predictSolubility(solubilityDescriptors(rdkit, parent)));
}
