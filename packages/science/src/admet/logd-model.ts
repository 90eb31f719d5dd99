import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, type Fingerprint, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet, weightedTanimotoSum } from "../fingerprint/reference-set.ts";
import type { AdmetModelFileBase } from "./admet-model-file.ts";

/** Named in every output: kernel ridge on Tanimoto (Morgan) plus a linear descriptor kernel. */
export const LOGD_MODEL = "lipo_krr_tanimoto_descriptors";

/**
 * Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet), Lipophilicity, test RMSE of graph convolution
 * (0.655) on MoleculeNet's random split. (A kernel ridge figure once quoted beside it had no
 * checkable source and was dropped, issue 36 item 10.)
 */
export const MOLECULENET_LIPO = {
  graphconv_test_rmse: 0.655,
  split: "random",
} as const;

export const LOGD_CITATIONS = [
  "AstraZeneca, ChEMBL deposition CHEMBL3301361 (4,200 shake-flask logD7.4 values), as distributed by MoleculeNet",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: Lipophilicity, scaffold split, published test RMSE)",
  "Saunders, Gammerman & Vovk, ICML 1998 (kernel ridge regression)",
  "Ralaivola, Swamidass, Saigo & Baldi, Neural Networks 2005, 18, 1093 (Tanimoto kernel on fingerprints)",
  "Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, 868 (WLOGP: the rule baseline)",
  "Lei et al., J. Am. Stat. Assoc. 2018, 113, 1094 (split-conformal intervals)",
];

/**
 * The logD7.4 model file. Prediction = intercept + Σ alpha[i]·Tanimoto(train_i, query) +
 * Σ beta[j]·z_j(query), z the descriptors standardised with the training mean and scale (the
 * linear-kernel part collapsed to its weights). Fitted on the train rows only; valid chose λ and
 * the descriptor weight and calibrates the conformal intervals; test is held out.
 */
export interface LogdModelFile extends AdmetModelFileBase {
  readonly kernel: string;
  readonly lambda_grid: readonly number[];
  readonly weight_grid: readonly number[];
  readonly lambda: number;
  readonly descriptor_weight: number;
  readonly descriptors: readonly string[];
  readonly standardization: { readonly mean: readonly number[]; readonly scale: readonly number[] };
  readonly intercept: number;
  /** One coefficient per train row, in data-row order. */
  readonly alpha: readonly number[];
  readonly beta: readonly number[];
  readonly valid_rmse: number;
  readonly test: { readonly rows: number; readonly rmse: number; readonly r2: number };
  /** The rule baseline on the same test rows: Wildman–Crippen WLOGP read as log D. */
  readonly baseline_test: { readonly what: string; readonly rmse: number; readonly r2: number };
  readonly conformal: {
    readonly calibration: string;
    readonly half_width: Readonly<Record<string, number>>;
    /** Share of test rows inside their interval, per level. */
    readonly test_coverage: Readonly<Record<string, number>>;
  };
}

export function readLogdModelFile(): LogdModelFile {
  return JSON.parse(readDataFile("lipo-logd-model.json")) as LogdModelFile;
}

export interface LoadedLogdModel {
  readonly file: Omit<LogdModelFile, "row_bits" | "row_split" | "alpha">;
  readonly alpha: Float64Array;
  /** The train rows: the kernel's support and the applicability domain's reference set. */
  readonly training: FingerprintSet;
}

let cached: LoadedLogdModel | null = null;

export function logdModel(): LoadedLogdModel {
  if (cached !== null) return cached;
  const { row_bits, row_split, alpha, ...header } = readLogdModelFile();
  const training: Fingerprint[] = [];
  row_bits.forEach((bits, row) => {
    if (row_split[row] === "t") training.push(packBits(decodeOnBits(bits)));
  });
  if (training.length !== alpha.length)
    throw new Error("lipo-logd-model.json: alpha does not match train rows");
  cached = { file: header, alpha: Float64Array.from(alpha), training: fingerprintSet(training) };
  return cached;
}

export interface LogdEstimate {
  readonly value: number;
  /** Highest Tanimoto to the train rows (a by-product of the kernel row). */
  readonly nearest_tanimoto: number;
}

/** log D7.4 of a parent from its Morgan on-bits and descriptor row (LOGD_DESCRIPTORS order). */
export function predictLogd(
  model: LoadedLogdModel,
  onBits: readonly number[],
  row: readonly number[],
): LogdEstimate {
  const { file } = model;
  const kernel = weightedTanimotoSum(packBits(onBits), model.training, model.alpha);
  let value = file.intercept + kernel.sum;
  const nearest = kernel.max;
  file.beta.forEach((b, j) => {
    value +=
      b * (((row[j] ?? 0) - (file.standardization.mean[j] ?? 0)) / (file.standardization.scale[j] ?? 1));
  });
  return { value, nearest_tanimoto: nearest };
}
