import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, type Fingerprint, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet, maxTanimoto } from "../fingerprint/reference-set.ts";
import type { AdmetModelFileBase } from "./admet-model-file.ts";
import { type MixedLogisticModel, predictMixed } from "./mixed-logistic.ts";

/** Named in every output. */
export const BBB_MODEL = "bbbp_logreg_morgan2";

/**
 * Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet), BBBP on its scaffold split: test ROC-AUC of
 * the best model (kernel SVM on ECFP, 0.729) and of graph convolution (0.690).
 */
export const MOLECULENET_BBBP = { kernelsvm_test_roc_auc: 0.729, graphconv_test_roc_auc: 0.69 } as const;

export const BBB_CITATIONS = [
  "Martins, Teixeira, Pinheiro & Falcao, J. Chem. Inf. Model. 2012, 52, 1686 (BBBP data)",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: BBBP, scaffold split, published test ROC-AUC)",
  "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
  "le Cessie & van Houwelingen, Appl. Stat. 1992, 41, 191 (L2-penalised logistic regression)",
  "Matthews, Biochim. Biophys. Acta 1975, 405, 442 (MCC)",
  "Daina & Zoete, ChemMedChem 2016, 11, 1117 (BOILED-Egg: the rule baseline)",
];

/** Held-out figures of binary calls on the test rows. */
export interface TestScores {
  readonly accuracy: number;
  readonly mcc: number;
}

/**
 * The BBB model file: an L2 logistic regression on the parent's Morgan bits and the standardized
 * LOGD_DESCRIPTORS (TPSA and WLOGP among them; BOILED-Egg's axes are WLOGP and TPSA with S and P), L2 chosen on valid,
 * fitted on train + valid (as the Tox21 and ClinTox models), scored on test beside BOILED-Egg.
 */
export interface BbbModelFile extends AdmetModelFileBase {
  readonly training: {
    readonly l2_grid: readonly number[];
    readonly iterations: number;
    readonly learning_rate: number;
  };
  readonly descriptors: readonly string[];
  readonly standardization: { readonly mean: readonly number[]; readonly scale: readonly number[] };
  readonly l2: number;
  readonly model: MixedLogisticModel;
  /** Probability at or above which the call is "penetrant". */
  readonly threshold: number;
  readonly valid_roc_auc: number;
  readonly test: TestScores & { readonly rows: number; readonly positives: number; readonly roc_auc: number };
  /** BOILED-Egg's yolk call on the same test rows. */
  readonly boiled_egg_test: TestScores;
  /** What was tried before this model, with its test figures (the test rows were seen). */
  readonly history: string;
}

export function readBbbModelFile(): BbbModelFile {
  return JSON.parse(readDataFile("bbbp-model.json")) as BbbModelFile;
}

export interface LoadedBbbModel {
  readonly file: Omit<BbbModelFile, "row_bits" | "row_split">;
  readonly training: FingerprintSet;
}

let cached: LoadedBbbModel | null = null;

export function bbbModel(): LoadedBbbModel {
  if (cached !== null) return cached;
  const { row_bits, row_split, ...header } = readBbbModelFile();
  const training: Fingerprint[] = [];
  row_bits.forEach((bits, row) => {
    const code = row_split[row];
    if (code === "t" || code === "v") training.push(packBits(decodeOnBits(bits)));
  });
  cached = { file: header, training: fingerprintSet(training) };
  return cached;
}

export interface BbbCall {
  readonly model: typeof BBB_MODEL;
  readonly probability: number;
  readonly penetrant: boolean;
  readonly nearest_tanimoto: number;
  readonly in_domain: boolean;
}

/** The model's call for a parent's Morgan on-bits and descriptor row (LOGD_DESCRIPTORS order). */
export function predictBbb(onBits: readonly number[], row: readonly number[]): BbbCall {
  const { file, training } = bbbModel();
  const { mean, scale } = file.standardization;
  const x = row.map((v, j) => (v - (mean[j] ?? 0)) / (scale[j] ?? 1));
  const probability = predictMixed(file.model, { bits: onBits, x });
  const similarity = maxTanimoto(packBits(onBits), training);
  return {
    model: BBB_MODEL,
    probability: Math.round(probability * 1000) / 1000,
    penetrant: probability >= file.threshold,
    nearest_tanimoto: Math.round(similarity * 1000) / 1000,
    in_domain: similarity >= file.domain.min_tanimoto,
  };
}
