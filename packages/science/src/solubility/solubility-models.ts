import { mlpOutput, type SparseMlp } from "../admet/sparse-mlp.ts";
import { TDC_DESCRIPTORS, tdcDescriptorRow } from "../admet/tdc-features.ts";
import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, morganOnBits, packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { type FingerprintSet, fingerprintSet, maxTanimoto } from "../fingerprint/reference-set.ts";
import { lastParentCache } from "../parent/last-parent-cache.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { ESOL_TERMS, publishedEsol } from "./esol.ts";
import { predictLinear } from "./fit-regression.ts";
import { type SolubilityDescriptors, solubilityDescriptors } from "./solubility-descriptors.ts";
import {
  type CurvePoint,
  networkRow,
  predictRidge,
  type SolubilityCandidate,
  type SolubilityFigures,
} from "./solubility-fit.ts";

/** Which fit produced a number (named in every output): every candidate but the constant predictor. */
export type SolubilityModelName = Exclude<SolubilityCandidate, "constant">;
export const SOLUBILITY_MODEL_NAMES: readonly SolubilityModelName[] = [
  "esol_published_crippen",
  "esol_refit_rdkit",
  "ridge_rdkit2d",
  "mlp64_morgan2_rdkit2d",
];

/** Figures of one candidate on the scaffold CV: all compounds, the drug-like subset and the rest. */
export interface SubsetFigures {
  readonly all: SolubilityFigures;
  readonly drug_like: SolubilityFigures;
  readonly not_drug_like: SolubilityFigures;
}

/** `data/solubility-models.json`, written by `scripts/fit-solubility-models.ts`. */
export interface SolubilityModelFile {
  readonly generated_by: string;
  readonly training_set: {
    readonly file: string;
    readonly sha256: string;
    readonly rows: number;
    readonly refused: number;
    readonly out_of_class: number;
    readonly duplicates_merged: number;
    readonly compounds: number;
  };
  readonly rdkit_version: string;
  /** The network's and the ridge's dense columns (TDC_DESCRIPTORS). */
  readonly descriptors: readonly string[];
  /** The candidate with the lowest scaffold-CV RMSE: the model the report shows. */
  readonly adopted: SolubilityModelName;
  readonly scaffold_cv: {
    readonly grouping: string;
    readonly folds: number;
    readonly seed: number;
    readonly groups: number;
    /** Parents without a ring: one group. */
    readonly acyclic: number;
    readonly drug_like: number;
    /** The network's early-stopped epoch in each outer fold. */
    readonly network_epochs: readonly number[];
    /** Per candidate and the constant predictor (`constant`). */
    readonly figures: Readonly<Record<SolubilityCandidate, SubsetFigures>>;
  };
  readonly domain: {
    /** Nearest training Tanimoto (Morgan radius 2) at or above which a parent is in the domain. */
    readonly min_tanimoto: number;
    /** The training parents' MW range (Da): a parent outside it is out of the domain (descriptor range). */
    readonly mw_range: readonly [number, number];
    /** 99th percentile of random training pairs' Tanimoto: the floor never goes below it. */
    readonly random_pair_p99: number;
    readonly bins: readonly number[];
    /** The adopted model's out-of-fold RMSE per bin of nearest training-fold Tanimoto. */
    readonly curve: readonly CurvePoint[];
    readonly approved_drugs: {
      readonly reference: string;
      readonly approved: number;
      readonly prepared: number;
      readonly under_700: number;
      readonly in_domain: number;
    };
  };
  readonly refit: { readonly terms: readonly string[]; readonly weights: readonly number[] };
  readonly ridge: {
    readonly lambda_per_row: number;
    readonly mean: number[];
    readonly scale: number[];
    readonly intercept: number;
    readonly weights: number[];
  };
  readonly network: {
    readonly hidden: number;
    readonly epochs: number;
    readonly batch: number;
    readonly learningRate: number;
    readonly weightDecay: number;
    readonly innerFolds: number;
    /** The early-stopped epoch of the deployed network. */
    readonly epoch: number;
    readonly mean: number[];
    readonly scale: number[];
    readonly y_mean: number;
    readonly y_sd: number;
    readonly mlp: SparseMlp;
  };
  /** Morgan on-bits (three hex digits each) of the training parents: the domain's reference set. */
  readonly training_bits: readonly string[];
}

let cached: SolubilityModelFile | null = null;

export function solubilityModels(): SolubilityModelFile {
  cached ??= JSON.parse(readDataFile("solubility-models.json")) as SolubilityModelFile;
  return cached;
}

let trainingSet: FingerprintSet | null = null;

/** The training parents' fingerprints, packed once per thread. */
export function solubilityTrainingSet(): FingerprintSet {
  trainingSet ??= fingerprintSet(
    solubilityModels().training_bits.map((bits) => packBits(decodeOnBits(bits))),
  );
  return trainingSet;
}

export interface SolubilityPrediction {
  /** Every model's log S, each under its name. */
  readonly estimates: Readonly<Record<SolubilityModelName, number>>;
  /** The adopted model's log S. */
  readonly value: number;
  /** Highest Tanimoto (Morgan radius 2) to a training parent. */
  readonly nearest_tanimoto: number;
  /** Nearest training Tanimoto at or above the model's floor, and MW inside the training parents' range. */
  readonly in_domain: boolean;
  /** The parent's MW is inside the training parents' range. */
  readonly in_mw_range: boolean;
}

/** The four solubility estimates of one parent from its features, and the adopted model's domain. */
export function predictSolubility(
  bits: readonly number[],
  dense: readonly number[],
  d: SolubilityDescriptors,
): SolubilityPrediction {
  const models = solubilityModels();
  const net = models.network;
  const scale = { mean: net.mean, scale: net.scale };
  const ridge = {
    lambdaPerRow: models.ridge.lambda_per_row,
    scale: { mean: models.ridge.mean, scale: models.ridge.scale },
    intercept: models.ridge.intercept,
    weights: models.ridge.weights,
  };
  const estimates: Record<SolubilityModelName, number> = {
    esol_published_crippen: publishedEsol(d),
    esol_refit_rdkit: predictLinear(
      models.refit.weights,
      ESOL_TERMS.map((term) => d[term]),
    ),
    ridge_rdkit2d: predictRidge(ridge, dense),
    mlp64_morgan2_rdkit2d: net.y_mean + net.y_sd * mlpOutput(net.mlp, networkRow(bits, dense, scale)),
  };
  const nearest = maxTanimoto(packBits(bits), solubilityTrainingSet());
  const mw = dense[TDC_DESCRIPTORS.indexOf("amw")] ?? 0;
  const [low, high] = models.domain.mw_range;
  const inMwRange = mw >= low && mw <= high;
  return {
    estimates,
    value: estimates[models.adopted],
    nearest_tanimoto: nearest,
    in_domain: inMwRange && nearest >= models.domain.min_tanimoto,
    in_mw_range: inMwRange,
  };
}

/** {@link predictSolubility} of a parent molecule. */
export function predictMolSolubility(rdkit: RDKit, mol: Mol): SolubilityPrediction {
  return predictSolubility(morganOnBits(mol), tdcDescriptorRow(mol), solubilityDescriptors(rdkit, mol));
}

const lastPrediction = lastParentCache<SolubilityPrediction>();

/**
 * {@link predictSolubility} of a prepared compound's parent, computed once when several modules ask
 * for the same parent (solubility_assessment, admet_predictions, uncertainty_quantification); the
 * Morgan bits are the parent's shared ones (compoundOnBits), the descriptors its memoized ones.
 */
export function predictCompoundSolubility(compound: PreparedCompound & { ok: true }): SolubilityPrediction {
  return lastPrediction(compound.chem.parent_smiles, () => {
    const bits = compoundOnBits(compound);
    return withParentMol(compound, (mol, rdkit) =>
      predictSolubility(bits, tdcDescriptorRow(mol), solubilityDescriptors(rdkit, mol)),
    );
  });
}

/** The domain rule in one line, as every output states it. */
export function solubilityDomainRule(): string {
  const d = solubilityModels().domain;
  return (
    `nearest training Tanimoto (Morgan r2) ≥ ${d.min_tanimoto.toFixed(3)} (not below random-pair similarity; the ` +
    `scaffold-CV error rises beneath it) and MW ${d.mw_range[0]}–${d.mw_range[1]} Da (the training parents' range)`
  );
}
