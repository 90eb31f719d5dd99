import type { SplitPart } from "../numeric/random-split.ts";
import { type LogisticModel, predictLogistic } from "./logistic-regression.ts";
import { decodeOnBits, type Fingerprint, packBits } from "./morgan.ts";
import { type FingerprintSet, fingerprintSet } from "./reference-set.ts";

/** One task's logistic regression and its held-out figures. */
export interface TaskModel extends LogisticModel {
  readonly name: string;
  readonly l2: number;
  readonly n_train: number;
  readonly n_test: number;
  readonly test_positives: number;
  readonly valid_roc_auc: number;
  /** Pooled out-of-fold ROC-AUC over `cv_folds` seeded folds of all labelled rows, where computed. */
  readonly cv_roc_auc?: number;
  readonly cv_folds?: number;
  /** ROC-AUC of these very weights on the test rows, which no fit or choice saw. */
  readonly test_roc_auc: number;
}

/**
 * A fingerprint model file written by `scripts/train-fingerprint-models.ts`: per dataset row its
 * split part and its parent's Morgan on-bits (three hex digits each), and one model per task.
 */
export interface FingerprintModelFile {
  readonly generated_by: string;
  readonly training_set: string;
  readonly rdkit_version: string;
  readonly fingerprint: { readonly kind: "morgan"; readonly radius: number; readonly bits: number };
  readonly seed: number;
  readonly split: {
    readonly kind: "random";
    readonly train: number;
    readonly valid: number;
    readonly test: number;
    readonly note: string;
  };
  readonly training: {
    readonly l2_grid: readonly number[];
    readonly iterations: number;
    readonly learning_rate: number;
  };
  /** Per dataset row: t(rain), v(alid), s (test) or x (RDKit refused the SMILES). */
  readonly row_split: string;
  /** Per dataset row: the parent's on-bits, "" for a refused row. */
  readonly row_bits: readonly string[];
  /** The applicability-domain limit: this percentile of the training rows' leave-one-out max Tanimoto. */
  readonly domain: { readonly percentile: number; readonly min_tanimoto: number };
  readonly tasks: readonly TaskModel[];
  readonly mean_test_roc_auc: number;
}

export const PART_CODE: Readonly<Record<SplitPart, string>> = { train: "t", valid: "v", test: "s" };

/** The deployed models were fitted on train + valid: that is their reference set. */
export function isTrainingRow(code: string): boolean {
  return code === "t" || code === "v";
}

/** The model file without its per-row data (kept in memory for the run). */
export type FingerprintModelHeader = Omit<FingerprintModelFile, "row_bits" | "row_split">;

export interface LoadedFingerprintModel {
  readonly file: FingerprintModelHeader;
  /** Fingerprints of the rows the deployed models were fitted on. */
  readonly training: FingerprintSet;
}

export function loadFingerprintModel(file: FingerprintModelFile): LoadedFingerprintModel {
  const training: Fingerprint[] = [];
  file.row_bits.forEach((bits, row) => {
    if (isTrainingRow(file.row_split[row] ?? "x")) training.push(packBits(decodeOnBits(bits)));
  });
  const { row_bits: _bits, row_split: _split, ...header } = file;
  return { file: header, training: fingerprintSet(training) };
}

/** Each task's probability for a molecule's on-bits, by task name. */
export function predictTasks(
  file: FingerprintModelHeader,
  onBits: readonly number[],
): Record<string, number> {
  return Object.fromEntries(file.tasks.map((task) => [task.name, predictLogistic(task, onBits)]));
}
