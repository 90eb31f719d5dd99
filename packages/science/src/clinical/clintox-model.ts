import { readDataFile } from "../data/read-data-file.ts";
import {
  type FingerprintModelFile,
  type LoadedFingerprintModel,
  loadFingerprintModel,
} from "../fingerprint/fingerprint-model-file.ts";
import { decodeOnBits, type Fingerprint, packBits } from "../fingerprint/morgan.ts";
import { clinToxRows } from "./clintox-set.ts";

export interface ApprovedDrug {
  /** 1-based data row of `data/clintox.csv` (ClinTox gives SMILES, no names). */
  readonly clintox_row: number;
  readonly smiles: string;
  readonly fingerprint: Fingerprint;
}

export interface ClinToxModel extends LoadedFingerprintModel {
  /** Every ClinTox row with FDA_APPROVED = 1 that RDKit parsed. */
  readonly approved: readonly ApprovedDrug[];
}

let cached: ClinToxModel | null = null;

/** The CT_TOX model (`data/clintox-fingerprint-model.json`) and ClinTox's approved drugs, read once. */
export function clinToxModel(): ClinToxModel {
  if (cached !== null) return cached;
  const file = JSON.parse(readDataFile("clintox-fingerprint-model.json")) as FingerprintModelFile;
  const rows = clinToxRows();
  if (rows.length !== file.row_bits.length)
    throw new Error("clintox-fingerprint-model.json does not match clintox.csv: rerun the training script");
  const approved = rows.flatMap((row, i): ApprovedDrug[] => {
    const bits = file.row_bits[i] ?? "";
    return row.fdaApproved === 1 && bits !== ""
      ? [{ clintox_row: i + 1, smiles: row.smiles, fingerprint: packBits(decodeOnBits(bits)) }]
      : [];
  });
  cached = { ...loadFingerprintModel(file), approved };
  return cached;
}
