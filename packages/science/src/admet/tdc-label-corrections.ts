import { readDataFile } from "../data/read-data-file.ts";
import type { TdcDataset, TdcRow } from "./tdc-datasets.ts";
import { parseTdc } from "./tdc-datasets.ts";

/**
 * Cited label corrections to the TDC files (issue 36 item 7, data/tdc-label-corrections.json): a
 * row's label is changed only where a published in-vitro measurement puts the compound on the other
 * side of the label's cut, the source named per row (data/PROVENANCE.md). The data files stay byte
 * copies of TDC's; the corrections are applied when a model is trained and when its test figures
 * are recomputed, so both read the same labels.
 */
export interface LabelCorrection {
  readonly file: string;
  /** The 1-based line of the CSV (header is line 1). */
  readonly line: number;
  /** The row's Drug_ID, checked before the label is changed. */
  readonly drug_id: string;
  readonly from: number;
  readonly to: number;
  readonly evidence: string;
  readonly source: string;
}

export interface LabelCorrectionsFile {
  readonly what: string;
  readonly corrections: readonly LabelCorrection[];
  readonly not_corrected: readonly {
    readonly file: string;
    readonly drug_ids: readonly string[];
    readonly label: number;
    readonly why: string;
  }[];
}

export const LABEL_CORRECTIONS_FILE = "tdc-label-corrections.json";

let cached: LabelCorrectionsFile | null = null;

export function labelCorrections(): LabelCorrectionsFile {
  cached ??= JSON.parse(readDataFile(LABEL_CORRECTIONS_FILE)) as LabelCorrectionsFile;
  return cached;
}

/** The corrections of one data file. */
export function correctionsOf(file: string): readonly LabelCorrection[] {
  return labelCorrections().corrections.filter((c) => c.file === file);
}

/**
 * A dataset's rows with its cited corrections applied. Throws when a correction's line does not hold
 * its Drug_ID with the label it corrects: a changed data file must not be corrected blindly.
 */
export function correctedTdcRows(d: TdcDataset, text: string = readDataFile(d.file)): TdcRow[] {
  const rows = parseTdc(text, d.column);
  const corrections = correctionsOf(d.file);
  if (corrections.length === 0) return rows;
  const lines = text.split(/\r?\n/);
  const out = [...rows];
  for (const c of corrections) {
    const at = c.line - 2;
    const row = out[at];
    if (row === undefined || !(lines[c.line - 1] ?? "").startsWith(`${c.drug_id},`) || row.y !== c.from)
      throw new Error(
        `${d.file} line ${c.line}: not ${c.drug_id} labelled ${c.from}; the correction does not apply`,
      );
    out[at] = { ...row, y: c.to };
  }
  return out;
}
