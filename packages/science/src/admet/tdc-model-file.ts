import type { TdcTask } from "./tdc-datasets.ts";
import type { TdcPredictor } from "./tdc-predictor.ts";

/** Held-out figures of a classifier on the test rows (probabilities after calibration). */
export interface ClassifierFigures {
  readonly auroc: number;
  readonly auprc: number;
  /** Matthews correlation at the model's fixed threshold. */
  readonly mcc: number;
  /** Expected calibration error, 10 equal-width probability bins (Naeini et al., AAAI 2015). */
  readonly ece: number;
  readonly brier: number;
}

export interface RegressorFigures {
  readonly rmse: number;
  readonly mae: number;
  readonly r2: number;
}

/**
 * One TDC model as `scripts/train-tdc-models.ts` writes it (`data/tdc-<key>-model.json`): the data
 * file's sha256, the row-by-row split and deduplication, the fitted network, its calibration,
 * conformal thresholds and domain limit, and the held-out figures beside the baselines.
 */
export interface TdcModelFile {
  readonly generated_by: string;
  readonly model_id: string;
  readonly key: string;
  readonly file: string;
  readonly sha256: string;
  readonly task: TdcTask;
  readonly rdkit_version: string;
  readonly seed: number;
  readonly fingerprint: { readonly kind: "morgan"; readonly radius: number; readonly bits: number };
  readonly descriptors: readonly string[];
  readonly standardization: { readonly mean: readonly number[]; readonly scale: readonly number[] };
  /** Regression only: the target's training mean and standard deviation (the network predicts z). */
  readonly target_scale: { readonly mean: number; readonly sd: number } | null;
  readonly curation: {
    readonly rows: number;
    readonly refused: number;
    readonly out_of_class: number;
    /** Rows whose parent repeats an earlier row's with the same label (merged; regression: labels averaged). */
    readonly duplicates_merged: number;
    /** Rows dropped because their parent carries both labels (classification only). */
    readonly conflicting_dropped: number;
    readonly compounds: number;
  };
  readonly split: {
    readonly kind: "scaffold";
    readonly method: string;
    readonly train: number;
    readonly valid: number;
    readonly test: number;
  };
  /**
   * Per data row: t/v/s the first row of a compound in train/valid/test, T/V/S a later duplicate of
   * one, c conflicting labels (dropped), x refused by RDKit, o outside the organic classes.
   */
  readonly row_split: string;
  /** The training compounds' Morgan on-bits (three hex digits each): the applicability-domain reference. */
  readonly train_bits: readonly string[];
  readonly domain: { readonly percentile: number; readonly min_tanimoto: number; readonly reference: string };
  /** The predictor valid chose among the networks and the logistic regressions, and why. */
  readonly model: { readonly what: string; readonly predictor: TdcPredictor; readonly chosen: string };
  /** Platt scaling (Platt 1999) of the network's logit, fitted on the valid rows: p = σ(a·z + b). */
  readonly calibration: { readonly method: "platt"; readonly a: number; readonly b: number } | null;
  readonly threshold: number | null;
  /**
   * Split-conformal calibration on the valid rows (Vovk et al. 2005): classifiers, label-conditional
   * (Mondrian) nonconformity 1 − p(label) thresholds per class; regressors, the absolute-residual
   * half-width. At `level`.
   */
  readonly conformal:
    | { readonly level: number; readonly kind: "mondrian"; readonly q0: number; readonly q1: number }
    | { readonly level: number; readonly kind: "absolute_residual"; readonly half_width: number };
  readonly valid: Readonly<Record<string, number>>;
  readonly test: {
    readonly rows: number;
    readonly positives: number | null;
    readonly model: ClassifierFigures | RegressorFigures;
    /** The constant predictor (training prevalence or mean) on the same rows. */
    readonly constant: ClassifierFigures | RegressorFigures;
    /** The simple baseline on the same rows: L2 logistic regression (classifier) or ridge on the descriptors (regressor). */
    readonly simple: ClassifierFigures | RegressorFigures;
    readonly simple_what: string;
    readonly conformal_coverage: number;
    /** Classifiers: share of test compounds whose set is a single label. */
    readonly conformal_singletons: number | null;
    /** Classifiers: AUROC − 1.96·SE (Hanley & McNeil 1982), the lower bound the adoption rule reads. */
    readonly auroc_lower_95: number | null;
  };
  readonly admet_ai: { readonly metric: "auroc" | "mae"; readonly value: number } | null;
  readonly adopted: boolean;
  readonly adoption_rule: string;
  /**
   * Classifiers with cited label corrections (data/tdc-label-corrections.json, issue 36 item 7): whether
   * they were applied, and the calibrated probability of each corrected compound by Drug_ID.
   */
  readonly corrected_rows?: {
    readonly applied: boolean;
    readonly probabilities: Readonly<Record<string, number>>;
  };
  /** The corrections' effect: the same pipeline on TDC's labels as shipped, its test figures and probabilities. */
  readonly label_correction_effect?: {
    readonly what: string;
    readonly test: TdcModelFile["test"];
    readonly probabilities: Readonly<Record<string, number>>;
  };
  readonly wall_seconds: number;
}
