import { readDataFile } from "../data/read-data-file.ts";
import type { CoverageResult } from "./conformal.ts";

/** `data/conformal-calibration.json`, written by `scripts/calibrate-conformal.ts`. */
export interface ConformalCalibrationFile {
  readonly generated_by: string;
  readonly rdkit_version: string;
  readonly solubility: {
    readonly model: string;
    readonly calibration: string;
    /** Nominal coverage ("0.8", "0.9") → interval half-width in log S units. */
    readonly half_width: Readonly<Record<string, number>>;
    /**
     * Per level, how often the interval holds on each held-out fold's in-domain compounds when its
     * half-width is read from the other folds' residuals, pooled over the folds.
     */
    readonly held_out_fold_coverage: readonly {
      readonly level: number;
      readonly in_domain: number;
      readonly coverage_in_domain: number;
    }[];
  };
  readonly validation_chembl2321810: {
    readonly folds: number;
    readonly seed: number;
    readonly model: string;
    readonly split_conformal: readonly CoverageResult[];
    readonly cross_conformal: readonly CoverageResult[];
  };
}

let cached: ConformalCalibrationFile | null = null;

export function conformalCalibration(): ConformalCalibrationFile {
  cached ??= JSON.parse(readDataFile("conformal-calibration.json")) as ConformalCalibrationFile;
  return cached;
}
