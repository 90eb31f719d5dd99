import { readDataFile } from "../data/read-data-file.ts";
import { decodeOnBits, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet } from "../fingerprint/reference-set.ts";
import type { SplitPart } from "../numeric/random-split.ts";
import type { OfftargetValidation } from "./offtarget-validation.ts";

/**
 * The derived index of every DrugCentral drug with a target: CC BY-SA 4.0 like the DrugCentral
 * table it is made from (data/PROVENANCE.md), written by scripts/build-drugcentral-target-index.ts.
 */
export const DRUGCENTRAL_TARGET_INDEX_FILE = "drugcentral-target-index.json";

/** A DrugCentral target: one UniProt accession (a complex's members are each a target). */
export interface IndexedTarget {
  readonly accession: string;
  /** DrugCentral's target name (the accession itself when the table gave none that could be aligned). */
  readonly name: string;
}

/** A DrugCentral drug with at least one target, as the index keeps it. */
export interface TargetIndexedDrug {
  readonly struct_id: number;
  /** DrugCentral's INN. */
  readonly name: string;
  /** Approval lists naming it: FDA, EMA, PMDA (empty: in none of the three). */
  readonly approvals: readonly string[];
  /** Its targets, as positions in the index's `targets`, ascending. */
  readonly targets: readonly number[];
  /** Its part of the validation's scaffold split; a run's compounds are compared with every part. */
  readonly part: SplitPart;
  /** Morgan radius-2, 2,048-bit on-bits of its charge-neutral parent, hex (fingerprint/morgan.ts). */
  readonly bits: string;
}

export interface DrugCentralTargetIndexFile {
  readonly schema: "svc.drugcentral-target-index/v1";
  readonly licence: string;
  readonly attribution: string;
  readonly source: { readonly file: string; readonly sha256: string; readonly rows: number };
  readonly fingerprint: string;
  readonly evaluation_set: string;
  readonly validation: OfftargetValidation;
  readonly targets: readonly IndexedTarget[];
  readonly drugs: readonly TargetIndexedDrug[];
}

export interface DrugCentralTargetIndex {
  readonly file: DrugCentralTargetIndexFile;
  readonly set: FingerprintSet;
  /** Each drug's targets, in the order of `set`. */
  readonly drugTargets: readonly (readonly number[])[];
}

let cached: DrugCentralTargetIndex | null = null;

/** The checked-in index with its fingerprints packed for scanning; read once per thread. */
export function drugCentralTargetIndex(): DrugCentralTargetIndex {
  if (cached !== null) return cached;
  const file = JSON.parse(readDataFile(DRUGCENTRAL_TARGET_INDEX_FILE)) as DrugCentralTargetIndexFile;
  cached = {
    file,
    set: fingerprintSet(file.drugs.map((drug) => packBits(decodeOnBits(drug.bits)))),
    drugTargets: file.drugs.map((drug) => drug.targets),
  };
  return cached;
}
