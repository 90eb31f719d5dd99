import { readDataFile } from "../data/read-data-file.ts";

/** One PAINS pattern (Baell & Holloway 2010) with its family. */
export interface PainsPattern {
  /** RDKit's name, e.g. `ene_six_het_A(483)`: the class and, in brackets, its hit count in the paper. */
  readonly name: string;
  readonly smarts: string;
  readonly family: "A" | "B" | "C";
}

/**
 * Baell & Holloway's families by how often a class hit in their screens (J. Med. Chem. 2010,
 * 53, 2719, Tables 1–3): A ≥ 150 compounds, B 15–149, C fewer than 15. The count is the number
 * in brackets in each name; the split equals RDKit's PAINS_A/B/C catalogs (16/55/409).
 */
export function painsFamily(name: string): PainsPattern["family"] {
  const count = Number(/\((\d+)\)$/.exec(name)?.[1] ?? Number.NaN);
  if (!Number.isFinite(count)) throw new Error(`PAINS name without a count: ${name}`);
  return count >= 150 ? "A" : count >= 15 ? "B" : "C";
}

/** Parses `wehi_pains.csv`: `"<SMARTS>","<regId=<name>>"` per line. */
export function parsePainsCsv(text: string): PainsPattern[] {
  const patterns: PainsPattern[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const match = /^"(.+)","<regId=(.+)>"\s*$/.exec(line);
    if (match === null) throw new Error(`unexpected PAINS line: ${line}`);
    const [, smarts = "", name = ""] = match;
    patterns.push({ name, smarts, family: painsFamily(name) });
  }
  return patterns;
}

let cached: readonly PainsPattern[] | null = null;

/** The 480 PAINS patterns of `data/wehi-pains.csv`. */
export function painsPatterns(): readonly PainsPattern[] {
  cached ??= parsePainsCsv(readDataFile("wehi-pains.csv"));
  return cached;
}
