import { readDataFile } from "../data/read-data-file.ts";

/** One NIBR hit-triage filter (Schuffenhauer et al. 2020) as published in its CSV. */
export interface NibrFilter {
  readonly name: string;
  readonly smarts: string;
  /** The pattern must match at least this many times (MIN_COUNT). */
  readonly minCount: number;
  /** SEVERITY_COMMENT: EXCLUDE (score 2), FLAG (1) or ANNOTATION (0). */
  readonly severity: "EXCLUDE" | "FLAG" | "ANNOTATION";
  /** COVALENT = 1: the motif can react covalently with proteins. */
  readonly covalent: boolean;
  /** SPECIAL_MOL = 1: the motif marks a special molecule class (e.g. a metal, a dye). */
  readonly specialMol: boolean;
}

/** A CSV line with quoted fields holding commas; the NIBR and Brenk files quote some SMARTS. */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** Parses `SubstructureFilter_HitTriaging_wPubChemExamples.csv` (header row, then one filter a line). */
export function parseNibrCsv(text: string): NibrFilter[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = splitCsvLine(lines[0] ?? "");
  const column = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`NIBR filter file has no ${name} column`);
    return index;
  };
  const [name, smarts, minCount, severity, covalent, special] = [
    "PATTERN_NAME",
    "SMARTS",
    "MIN_COUNT",
    "SEVERITY_COMMENT",
    "COVALENT",
    "SPECIAL_MOL",
  ].map(column) as [number, number, number, number, number, number];
  return lines.slice(1).map((line) => {
    const fields = splitCsvLine(line);
    const comment = fields[severity];
    if (comment !== "EXCLUDE" && comment !== "FLAG" && comment !== "ANNOTATION")
      throw new Error(`unexpected NIBR severity: ${comment}`);
    return {
      name: fields[name] ?? "",
      smarts: fields[smarts] ?? "",
      // The NIBR script reads MIN_COUNT 0 as 1.
      minCount: Math.max(1, Number(fields[minCount] ?? "1")),
      severity: comment,
      covalent: fields[covalent] === "1",
      specialMol: fields[special] === "1",
    };
  });
}

let cached: readonly NibrFilter[] | null = null;

/** The 444 NIBR filters of `data/nibr-substructure-filters.csv`. */
export function nibrFilters(): readonly NibrFilter[] {
  cached ??= parseNibrCsv(readDataFile("nibr-substructure-filters.csv"));
  return cached;
}
