import { AlternateLocations, elementFromAtomName } from "./atom-record-policy.ts";
import { type ParsedStructure, type StructureAtom, StructureParseError } from "./structure-atom.ts";

/** The two line formats read by column: PDB, and AutoDock's PDBQT (PDB columns plus charge and type). */
export type PdbDialect = "pdb" | "pdbqt";

/**
 * Reads the `ATOM`/`HETATM` records of a PDB or PDBQT file by their fixed columns (wwPDB format 3.3,
 * §9 "Coordinate section"; PDBQT adds the partial charge in columns 71–76 and the AutoDock atom type
 * in 78–79), line by line so a caller may feed a stream. Only the first model is kept (`ENDMDL` ends
 * it), as ProDy's `parsePDB`, PLIP and most tools read an NMR ensemble; of alternate locations, see
 * {@link AlternateLocations}.
 */
export class PdbReader {
  private readonly atoms: StructureAtom[] = [];
  private readonly altLocs = new AlternateLocations();
  private line = 0;
  private records = 0;
  private done = false;
  private readonly dialect: PdbDialect;

  constructor(dialect: PdbDialect = "pdb") {
    this.dialect = dialect;
  }

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
    const atom = parseAtomRecord(text, this.line, ++this.records, this.dialect);
    if (this.altLocs.keeps(atom)) this.atoms.push(atom);
  }

  finish(): ParsedStructure {
    if (this.atoms.length === 0) throw new StructureParseError(0, "no ATOM or HETATM record");
    return { format: this.dialect, atoms: this.atoms };
  }
}

/** Parses a whole PDB (or PDBQT) text (see {@link PdbReader}). */
export function parsePdb(text: string, dialect: PdbDialect = "pdb"): ParsedStructure {
  const reader = new PdbReader(dialect);
  for (const line of text.split(/\r?\n/)) reader.push(line);
  return reader.finish();
}

/**
 * The element of each AutoDock 4 atom type that is not an element symbol (AutoDock 4.2 user guide,
 * "AD4.1_bound.dat": A aromatic carbon, NA/NS acceptor nitrogens, OA/OS acceptor oxygens, SA acceptor
 * sulfur, HD/HS donor hydrogens); every other type is its element.
 */
const AUTODOCK_TYPE_ELEMENT: Readonly<Record<string, string>> = {
  A: "C",
  NA: "N",
  NS: "N",
  OA: "O",
  OS: "O",
  SA: "S",
  HD: "H",
  HS: "H",
};

/**
 * One `ATOM`/`HETATM` line by its columns; `line` (1-based) names it in an error, `ordinal` stands in
 * for a serial number the line does not give. Exported for writers that rewrite a file line by line.
 */
export function parseAtomRecord(
  text: string,
  line = 0,
  ordinal = 0,
  dialect: PdbDialect = "pdb",
): StructureAtom {
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
  const name = text.slice(12, 16).trim();
  const serial = Number(text.slice(6, 11).trim());
  const autodockType = dialect === "pdbqt" ? text.slice(77, 79).trim().toUpperCase() : "";
  const element =
    autodockType !== ""
      ? (AUTODOCK_TYPE_ELEMENT[autodockType] ?? autodockType)
      : text.slice(76, 78).trim().toUpperCase() || elementFromAtomName(name);
  return {
    // Past 99,999 atoms the column holds `*****` or a hybrid-36 code: the record's order stands in.
    serial: Number.isInteger(serial) && text.slice(6, 11).trim() !== "" ? serial : ordinal,
    hetero: text.startsWith("HETATM"),
    name,
    altLoc: text.slice(16, 17).trim(),
    resName: text.slice(17, 20).trim(),
    chain: text.slice(21, 22).trim(),
    resSeq: number(22, 26, "residue number"),
    iCode: text.slice(26, 27).trim(),
    position: [number(30, 38, "x"), number(38, 46, "y"), number(46, 54, "z")],
    occupancy: number(54, 60, "occupancy", 1),
    bFactor: number(60, 66, "temperature factor", 0),
    element,
  };
}
