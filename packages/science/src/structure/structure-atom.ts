import { ScienceError } from "../science-error.ts";
import type { Vec3 } from "./vec3.ts";

/**
 * One atom record of a structure file (PDB or PDBQT `ATOM`/`HETATM`, or an mmCIF `_atom_site` row):
 * the one atom type every structure reader gives and every structure consumer (pocket, normal modes,
 * docking clash check, interaction profile, report) reads.
 */
export interface StructureAtom {
  /** The file's atom serial number (its 1-based order among atom records where the file gives none). */
  readonly serial: number;
  /** HETATM record (ligands, waters, ions) rather than ATOM. */
  readonly hetero: boolean;
  /** Atom name, trimmed (`CA`, `N`, `O1`). */
  readonly name: string;
  /** Alternate location indicator; "" when none (the readers keep one: atom-record-policy.ts). */
  readonly altLoc: string;
  readonly resName: string;
  readonly chain: string;
  readonly resSeq: number;
  /** Insertion code; "" when none. */
  readonly iCode: string;
  readonly position: Vec3;
  readonly occupancy: number;
  /** Crystallographic temperature factor (Å²), 0 when the file gives none. */
  readonly bFactor: number;
  /**
   * Element symbol in upper case (`C`, `ZN`): the file's element field, for PDBQT the element of the
   * AutoDock type, and where the file gives neither the first letter of the atom name.
   */
  readonly element: string;
}

/** A parsed structure: the atoms of its first model, in file order, one location per atom. */
export interface ParsedStructure {
  readonly format: "pdb" | "pdbqt" | "mmcif";
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
