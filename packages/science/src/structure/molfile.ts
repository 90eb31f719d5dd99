import type { Vec3 } from "./vec3.ts";

export interface MolfileAtom {
  readonly element: string;
  readonly position: Vec3;
}

export interface MolfileBond {
  /** 0-based atom indices. */
  readonly a: number;
  readonly b: number;
  readonly order: number;
}

export interface MolfileMolecule {
  readonly name: string;
  readonly atoms: readonly MolfileAtom[];
  readonly bonds: readonly MolfileBond[];
}

/**
 * Reads the connection table of every record of an SD file (V2000, the format RDKit and Open Babel
 * write for molecules under 1,000 atoms; CTfile Formats, BIOVIA 2020). V3000 records are refused.
 */
export function parseSdf(text: string): MolfileMolecule[] {
  const records = text
    .split(/^\$\$\$\$\s*$/m)
    .map((record) => record.replace(/^\s*\n/, ""))
    .filter((record) => /V2000|V3000/.test(record));
  return records.map(parseMolBlock);
}

/** One V2000 mol block. */
export function parseMolBlock(block: string): MolfileMolecule {
  const lines = block.split(/\r?\n/);
  const countsAt = lines.findIndex((line) => /V[23]000\s*$/.test(line));
  if (countsAt < 0) throw new Error("not a molfile: no counts line");
  const counts = lines[countsAt] ?? "";
  if (counts.includes("V3000")) throw new Error("V3000 molfiles are not read here");
  const atomCount = Number.parseInt(counts.slice(0, 3), 10);
  const bondCount = Number.parseInt(counts.slice(3, 6), 10);
  const atoms: MolfileAtom[] = [];
  for (let i = 0; i < atomCount; i++) {
    const line = lines[countsAt + 1 + i] ?? "";
    atoms.push({
      element: line.slice(31, 34).trim(),
      position: [Number(line.slice(0, 10)), Number(line.slice(10, 20)), Number(line.slice(20, 30))],
    });
  }
  const bonds: MolfileBond[] = [];
  for (let i = 0; i < bondCount; i++) {
    const line = lines[countsAt + 1 + atomCount + i] ?? "";
    bonds.push({
      a: Number.parseInt(line.slice(0, 3), 10) - 1,
      b: Number.parseInt(line.slice(3, 6), 10) - 1,
      order: Number.parseInt(line.slice(6, 9), 10),
    });
  }
  return { name: (lines[countsAt - 3] ?? "").trim(), atoms, bonds };
}

/** The molecule without hydrogens, atom order otherwise kept (bonds re-indexed). */
export function withoutHydrogens(molecule: MolfileMolecule): MolfileMolecule {
  const newIndex = new Map<number, number>();
  const atoms: MolfileAtom[] = [];
  molecule.atoms.forEach((atom, index) => {
    if (atom.element === "H") return;
    newIndex.set(index, atoms.length);
    atoms.push(atom);
  });
  const bonds: MolfileBond[] = [];
  for (const bond of molecule.bonds) {
    const a = newIndex.get(bond.a);
    const b = newIndex.get(bond.b);
    if (a !== undefined && b !== undefined) bonds.push({ a, b, order: bond.order });
  }
  return { name: molecule.name, atoms, bonds };
}
