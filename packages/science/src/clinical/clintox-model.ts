import { readDataFile } from "../data/read-data-file.ts";
import {
  type FingerprintModelFile,
  type LoadedFingerprintModel,
  loadFingerprintModel,
} from "../fingerprint/fingerprint-model-file.ts";
import { decodeOnBits, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet } from "../fingerprint/reference-set.ts";
import { clinToxRows } from "./clintox-set.ts";

export interface ApprovedDrug {
  /** 1-based data row of `data/clintox.csv` (ClinTox gives SMILES, no names). */
  readonly clintox_row: number;
  readonly smiles: string;
}

export interface ClinToxModel extends LoadedFingerprintModel {
  /** Every ClinTox row with FDA_APPROVED = 1 that RDKit parsed, and their fingerprints in that order. */
  readonly approved: readonly ApprovedDrug[];
  readonly approvedSet: FingerprintSet;
}

export function readClinToxModelFile(): FingerprintModelFile {
  return JSON.parse(readDataFile("clintox-fingerprint-model.json")) as FingerprintModelFile;
}

let cached: ClinToxModel | null = null;

/** The CT_TOX model (`data/clintox-fingerprint-model.json`) and ClinTox's approved drugs, read once. */
export function clinToxModel(): ClinToxModel {
  if (cached !== null) return cached;
  const file = readClinToxModelFile();
  const rows = clinToxRows();
  if (rows.length !== file.row_bits.length)
    throw new Error("clintox-fingerprint-model.json does not match clintox.csv: rerun the training script");
  const approvedRows = rows.flatMap((row, i) => (row.fdaApproved === 1 && file.row_bits[i] ? [i] : []));
  cached = {
    ...loadFingerprintModel(file),
    approved: approvedRows.map((i) => ({ clintox_row: i + 1, smiles: rows[i]?.smiles ?? "" })),
    approvedSet: fingerprintSet(approvedRows.map((i) => packBits(decodeOnBits(file.row_bits[i] ?? "")))),
  };
  return cached;
}
