import { readDataFile } from "../data/read-data-file.ts";

/** One row of ClinTox as MoleculeNet distributes it (`data/clintox.csv`). */
export interface ClinToxRow {
  readonly smiles: string;
  /** On the FDA approved list compiled from SWEETLEAD (Gayvert et al. 2016). */
  readonly fdaApproved: 0 | 1;
  /** Failed clinical trials for toxicity reasons (ClinicalTrials.gov AACT). */
  readonly ctTox: 0 | 1;
}

/** Parses `smiles,FDA_APPROVED,CT_TOX` (SMILES hold no commas). */
export function parseClinTox(text: string): ClinToxRow[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [smiles = "", approved = "", tox = ""] = line.split(",");
      return { smiles, fdaApproved: approved.trim() === "1" ? 1 : 0, ctTox: tox.trim() === "1" ? 1 : 0 };
    });
}

let cached: ClinToxRow[] | null = null;

export function clinToxRows(): ClinToxRow[] {
  cached ??= parseClinTox(readDataFile("clintox.csv"));
  return cached;
}
