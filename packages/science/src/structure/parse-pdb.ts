import { type ParsedStructure, type StructureAtom, StructureParseError } from "./structure-atom.ts";

/**
 * Reads the `ATOM`/`HETATM` records of a PDB file by their fixed columns (wwPDB format 3.3,
 * §9 "Coordinate section"), line by line so a caller may feed a stream. Only the first model is
 * kept (`ENDMDL` ends it), as ProDy's `parsePDB` and most tools read an NMR ensemble.
 */
export class PdbReader {
  private readonly atoms: StructureAtom[] = [];
  private line = 0;
  private done = false;

  /** Takes the next line of the file (without its line break). */
  push(text: string): void {
    this.line++;
    if (this.done) return;
    const record = text.slice(0, 6);
    if (record === "ENDMDL") {
      this.done = true;
      return;
    }
    if (record !== "ATOM  " && record !== "HETATM") return;
    this.atoms.push(parseAtomRecord(text, this.line));
  }

  finish(): ParsedStructure {
    if (this.atoms.length === 0) throw new StructureParseError(0, "no ATOM or HETATM record");
    return { format: "pdb", atoms: this.atoms };
  }
}

/** Parses a whole PDB text (see {@link PdbReader}). */
export function parsePdb(text: string): ParsedStructure {
  const reader = new PdbReader();
  for (const line of text.split(/\r?\n/)) reader.push(line);
  return reader.finish();
}

function parseAtomRecord(text: string, line: number): StructureAtom {
  const number = (from: number, to: number, field: string, fallback?: number): number => {
    const raw = text.slice(from, to).trim();
    if (raw === "" && fallback !== undefined) return fallback;
    const value = Number(raw);
    if (raw === "" || !Number.isFinite(value)) {
      throw new StructureParseError(line, `${field} (columns ${from + 1}-${to}) is not a number: "${raw}"`);
    }
    return value;
  };
  if (text.length < 54)
    throw new StructureParseError(line, `${text.slice(0, 6).trim()} record shorter than 54 columns`);
  return {
    hetero: text.startsWith("HETATM"),
    name: text.slice(12, 16).trim(),
    altLoc: text.slice(16, 17).trim(),
    resName: text.slice(17, 20).trim(),
    chain: text.slice(21, 22).trim(),
    resSeq: number(22, 26, "residue number"),
    iCode: text.slice(26, 27).trim(),
    x: number(30, 38, "x"),
    y: number(38, 46, "y"),
    z: number(46, 54, "z"),
    occupancy: number(54, 60, "occupancy", 1),
    bFactor: number(60, 66, "temperature factor", 0),
    element: text.slice(76, 78).trim().toUpperCase(),
  };
}
