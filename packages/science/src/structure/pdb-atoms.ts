import type { Vec3 } from "./vec3.ts";

export interface PdbAtom {
  readonly element: string;
  readonly name: string;
  readonly residueName: string;
  readonly chain: string;
  readonly residueNumber: number;
  readonly hetero: boolean;
  readonly position: Vec3;
}

/**
 * The ATOM/HETATM records of a PDB (or PDBQT) file, first model only (wwPDB format v3.3 columns).
 * The element is column 77–78, or for PDBQT the AutoDock type's element, or else the atom name's.
 */
export function parsePdbAtoms(text: string): PdbAtom[] {
  const atoms: PdbAtom[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("ENDMDL")) break;
    if (!line.startsWith("ATOM  ") && !line.startsWith("HETATM")) continue;
    const name = line.slice(12, 16).trim();
    atoms.push({
      element: elementOf(line, name),
      name,
      residueName: line.slice(17, 20).trim(),
      chain: line.slice(21, 22).trim(),
      residueNumber: Number.parseInt(line.slice(22, 26), 10),
      hetero: line.startsWith("HETATM"),
      position: [Number(line.slice(30, 38)), Number(line.slice(38, 46)), Number(line.slice(46, 54))],
    });
  }
  return atoms;
}

const AUTODOCK_TYPE_ELEMENT: Readonly<Record<string, string>> = {
  A: "C",
  C: "C",
  N: "N",
  NA: "N",
  NS: "N",
  OA: "O",
  OS: "O",
  SA: "S",
  S: "S",
  HD: "H",
  HS: "H",
  H: "H",
};

function elementOf(line: string, name: string): string {
  const pdbqtType =
    line.length > 77 &&
    line
      .slice(70, 76)
      .trim()
      .match(/^[+-]?\d/)
      ? line.slice(77).trim()
      : "";
  if (pdbqtType) return AUTODOCK_TYPE_ELEMENT[pdbqtType] ?? capitalise(pdbqtType);
  const column = line.slice(76, 78).trim();
  if (column) return capitalise(column);
  const letters = name.replace(/[^A-Za-z]/g, "");
  return capitalise(letters.slice(0, 1));
}

function capitalise(symbol: string): string {
  return symbol.slice(0, 1).toUpperCase() + symbol.slice(1).toLowerCase();
}
