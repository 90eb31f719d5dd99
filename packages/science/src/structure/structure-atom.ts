import { ScienceError } from "../science-error.ts";

/** One atom record of a structure file (PDB `ATOM`/`HETATM`, or an mmCIF `_atom_site` row). */
export interface StructureAtom {
  readonly hetero: boolean;
  /** Atom name, trimmed (`CA`, `N`, `O1`). */
  readonly name: string;
  /** Alternate location indicator; "" when none. */
  readonly altLoc: string;
  readonly resName: string;
  readonly chain: string;
  readonly resSeq: number;
  /** Insertion code; "" when none. */
  readonly iCode: string;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly occupancy: number;
  /** Crystallographic temperature factor (Å²), 0 when the file gives none. */
  readonly bFactor: number;
  /** Element symbol in upper case; "" when the file gives none. */
  readonly element: string;
}

/** A parsed structure: the atoms of its first model, in file order. */
export interface ParsedStructure {
  readonly format: "pdb" | "mmcif";
  readonly atoms: readonly StructureAtom[];
}

/** A structure file that cannot be read, with the 1-based line where reading stopped (0: the whole file). */
export class StructureParseError extends ScienceError<"STRUCTURE_UNPARSEABLE"> {
  readonly line: number;
  constructor(line: number, message: string) {
    super("STRUCTURE_UNPARSEABLE", line > 0 ? `line ${line}: ${message}` : message);
    this.line = line;
  }
}
