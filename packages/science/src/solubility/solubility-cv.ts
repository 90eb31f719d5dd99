import { readDataFile } from "../data/read-data-file.ts";
import type { SolubilityCandidate } from "./solubility-fit.ts";

/** One training parent's record of the scaffold CV (`data/solubility-cv.json`). */
export interface SolubilityCvCompound {
  /** Row indexes of `aqsoldb-train.csv` (0-based, header excluded) merged into this parent. */
  readonly rows: readonly number[];
  readonly group: string;
  readonly fold: number;
  readonly drug_like: boolean;
  readonly log_s: number;
  /** Highest Tanimoto to the compounds of the other folds (its training part). */
  readonly nearest: number;
  /** Out-of-fold prediction of each candidate, in `candidates` order. */
  readonly predicted: readonly number[];
}

/** `data/solubility-cv.json`, written by `scripts/fit-solubility-models.ts`: what the figures are computed from. */
export interface SolubilityCvFile {
  readonly generated_by: string;
  readonly what: string;
  readonly candidates: readonly SolubilityCandidate[];
  readonly compounds: readonly SolubilityCvCompound[];
}

/**
 * `data/solubility-drug-domain.json`: the approved DrugCentral drugs RDKit prepared, each with its
 * parent MW, nearest Tanimoto to the training parents and whether it is in the organic classes.
 * Derived from DrugCentral, so CC BY-SA 4.0 and a file of its own (data/PROVENANCE.md).
 */
export interface SolubilityDrugDomainFile {
  readonly licence: string;
  readonly attribution: string;
  readonly drugs: readonly {
    readonly struct_id: string;
    readonly mw: number;
    readonly nearest: number;
    readonly in_class: boolean;
  }[];
}

export function solubilityDrugDomain(): SolubilityDrugDomainFile {
  return JSON.parse(readDataFile("solubility-drug-domain.json")) as SolubilityDrugDomainFile;
}

let cached: SolubilityCvFile | null = null;

export function solubilityCv(): SolubilityCvFile {
  cached ??= JSON.parse(readDataFile("solubility-cv.json")) as SolubilityCvFile;
  return cached;
}
