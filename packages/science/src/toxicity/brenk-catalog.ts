import { readDataFile } from "../data/read-data-file.ts";
import { splitCsvLine } from "./nibr-catalog.ts";

/** Brenk et al., ChemMedChem 2008, 3, 435: unwanted groups for screening libraries. */
export const BRENK_CITATION =
  "Brenk et al., ChemMedChem 2008, 3, 435 (doi:10.1002/cmdc.200700139; Brenk alerts, as in RDKit's FilterCatalog)";

/** One Brenk alert as RDKit's FilterCatalog BRENK holds it (data/PROVENANCE.md). */
export interface BrenkAlert {
  readonly name: string;
  readonly smarts: string;
  /** The alert fires when the pattern matches at least this many times … */
  readonly minCount: number;
  /** … and at most this many (Infinity: no maximum, an empty `max_count`). */
  readonly maxCount: number;
}

/** Parses `data/brenk-alerts.csv` (written by `scripts/extract-brenk-alerts.py`). */
export function parseBrenkCsv(text: string): BrenkAlert[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines[0] !== "name,smarts,min_count,max_count") throw new Error(`unexpected Brenk header: ${lines[0]}`);
  return lines.slice(1).map((line) => {
    const [name = "", smarts = "", min = "", max = ""] = splitCsvLine(line);
    const minCount = Number(min);
    const maxCount = max === "" ? Number.POSITIVE_INFINITY : Number(max);
    if (name === "" || smarts === "" || !Number.isInteger(minCount) || Number.isNaN(maxCount))
      throw new Error(`unexpected Brenk line: ${line}`);
    return { name, smarts, minCount, maxCount };
  });
}

let cached: readonly BrenkAlert[] | null = null;

/** The 105 Brenk alerts of `data/brenk-alerts.csv`. */
export function brenkAlerts(): readonly BrenkAlert[] {
  cached ??= parseBrenkCsv(readDataFile("brenk-alerts.csv"));
  return cached;
}
