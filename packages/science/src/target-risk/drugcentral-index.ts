import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet } from "../fingerprint/reference-set.ts";

/** The derived index's file: CC BY-SA 4.0 like the DrugCentral table it is made from (data/PROVENANCE.md). */
export const DRUGCENTRAL_INDEX_FILE = "drugcentral-safety-index.json";
export const DRUGCENTRAL_SOURCE_FILE = "drugcentral-structures-approval-targets.csv.gz";
export const DRUGCENTRAL_CITATION =
  "Avram et al., Nucleic Acids Res. 2023, 51, D1276 (DrugCentral 2023: drug structures, approvals and UniProt targets; CC BY-SA 4.0)";

/** A DrugCentral drug with at least one safety-panel target, as the index keeps it. */
export interface IndexedDrug {
  readonly struct_id: number;
  /** DrugCentral's INN. */
  readonly name: string;
  /** Approval lists naming it: FDA, EMA, PMDA (empty: in none of the three). */
  readonly approvals: readonly string[];
  /** Gene symbols of the safety-panel targets DrugCentral lists for it. */
  readonly targets: readonly string[];
  /** Morgan radius-2, 2,048-bit on-bits of its charge-neutral parent, hex (fingerprint/morgan.ts). */
  readonly bits: string;
}

export interface SafetyNeighbourValidation {
  readonly split: string;
  readonly compounds: { readonly train: number; readonly valid: number; readonly test: number };
  /** Drugs of the evaluation set with at least one panel target, per part. */
  readonly with_panel_target: { readonly train: number; readonly valid: number; readonly test: number };
  readonly threshold_grid: readonly number[];
  /** Micro F1 on valid per grid threshold; the chosen threshold is the best (lowest on ties). */
  readonly valid_f1: readonly number[];
  readonly threshold: number;
  readonly test: PairScores & { readonly covered: number };
  /** Test figures at every grid threshold, so the trade-off is visible (the choice was made on valid). */
  readonly test_curve: readonly (PairScores & { readonly threshold: number; readonly covered: number })[];
  /** Test figures at the threshold per panel target with at least {@link PER_TARGET_MIN_POSITIVES} test drugs acting on it. */
  readonly per_target: readonly (PairScores & { readonly gene_symbol: string })[];
  readonly baselines: {
    /** The k most frequent panel targets of train predicted for every compound, k chosen on valid. */
    readonly most_frequent: PairScores & { readonly k: number; readonly targets: readonly string[] };
    /** Each target predicted at random with its train prevalence: the expected figures. */
    readonly prevalence_random: PairScores;
  };
}

export const PER_TARGET_MIN_POSITIVES = 5;

/** Precision, recall and F1 over (compound, panel target) pairs, micro-averaged. */
export interface PairScores {
  readonly true_positives: number;
  readonly predicted: number;
  readonly actual: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface DrugCentralIndexFile {
  readonly schema: "svc.drugcentral-safety-index/v1";
  readonly licence: string;
  readonly attribution: string;
  readonly source: { readonly file: string; readonly sha256: string; readonly rows: number };
  readonly panel_files: Readonly<Record<string, string>>;
  readonly fingerprint: string;
  readonly evaluation_set: string;
  readonly validation: SafetyNeighbourValidation;
  readonly drugs: readonly IndexedDrug[];
}

export interface DrugCentralIndex {
  readonly file: DrugCentralIndexFile;
  readonly set: FingerprintSet;
}

let cached: DrugCentralIndex | null = null;

/** The checked-in index and its fingerprints packed for scanning; read once per thread. */
export function drugCentralIndex(): DrugCentralIndex {
  if (cached !== null) return cached;
  const file = JSON.parse(readDataFile(DRUGCENTRAL_INDEX_FILE)) as DrugCentralIndexFile;
  cached = { file, set: fingerprintSet(file.drugs.map((drug) => packBits(decodeOnBits(drug.bits)))) };
  return cached;
}
