import { StructureParseError } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

export interface MolfileAtom {
  /** The element symbol as the file writes it (`C`, `Cl`). */
  readonly element: string;
  readonly position: Vec3;
}

export interface MolfileBond {
  /** 0-based atom indices. */
  readonly a: number;
  readonly b: number;
  /** The CTfile bond type: 1, 2, 3, or 4 (aromatic). */
  readonly order: number;
}

export interface MolfileMolecule {
  readonly name: string;
  readonly atoms: readonly MolfileAtom[];
  readonly bonds: readonly MolfileBond[];
}

/**
 * The molblocks of an SD file, in order, each cut after its `M  END` (CTfile Formats, BIOVIA 2020:
 * a record is a molblock, then data items, then `$$$$`); a record without `M  END` is left out.
 * The blocks are what RDKit reads, and what {@link parseMolBlock} reads.
 */
export function splitSdf(text: string): string[] {
  return text
    .replace(/\r\n/g, "\n")
    .split(/^\$\$\$\$[^\n]*\n?/m)
    .filter((block) => block.includes("M  END"))
    .map((block) => `${block.slice(0, block.indexOf("M  END"))}M  END\n`);
}

/**
 * Reads the connection table of every record of an SD file: the one SD reader (V2000, the format
 * RDKit and Open Babel write for molecules under 1,000 atoms, and V3000; CTfile Formats, BIOVIA 2020).
 */
export function parseSdf(text: string): MolfileMolecule[] {
  return splitSdf(text).map(parseMolBlock);
}

/**
 * The heavy-atom coordinates of the first molecule of an SD file, enough to place a reference
 * ligand's pocket (hydrogens are left out, as a pocket is drawn around heavy atoms). Throws
 * StructureParseError when the file holds no molecule or its first molecule no heavy atom.
 */
export function readSdfCoordinates(text: string): Vec3[] {
  const [block] = splitSdf(text);
  if (block === undefined) throw new StructureParseError(0, 'no molblock (no "M  END")');
  const points = withoutHydrogens(parseMolBlock(block)).atoms.map((atom) => atom.position);
  if (points.length === 0) throw new StructureParseError(0, "the first molecule has no heavy atom");
  return points;
}

/**
 * One mol block, V2000 or V3000. Throws StructureParseError (with the block's 1-based line) when the
 * counts line, an atom or a bond cannot be read.
 */
export function parseMolBlock(block: string): MolfileMolecule {
  const lines = block.split(/\r?\n/);
  const countsAt = lines.findIndex((line) => /V[23]000\s*$/.test(line));
  if (countsAt < 0) throw new StructureParseError(0, "not a molfile: no V2000 or V3000 counts line");
  const name = (lines[countsAt - 3] ?? "").trim();
  const counts = lines[countsAt] ?? "";
  const read = counts.includes("V3000") ? readV3000 : readV2000;
  return { name, ...read(lines, countsAt) };
}

function coordinates(x: number, y: number, z: number, line: number): Vec3 {
  if (![x, y, z].every(Number.isFinite))
    throw new StructureParseError(line, "atom coordinates are not numbers");
  return [x, y, z];
}

/** The V2000 atom and bond blocks by their columns, sized by the counts line. */
function readV2000(lines: readonly string[], countsAt: number): Omit<MolfileMolecule, "name"> {
  const counts = lines[countsAt] ?? "";
  const atomCount = Number(counts.slice(0, 3));
  const bondCount = Number(counts.slice(3, 6));
  if (!Number.isInteger(atomCount) || atomCount < 0 || !Number.isInteger(bondCount) || bondCount < 0)
    throw new StructureParseError(
      countsAt + 1,
      `counts line gives no atom and bond count: "${counts.slice(0, 6)}"`,
    );
  const atoms: MolfileAtom[] = [];
  for (let i = 0; i < atomCount; i++) {
    const at = countsAt + 1 + i;
    const line = lines[at];
    if (line === undefined || line.startsWith("M  "))
      throw new StructureParseError(at + 1, "atom block shorter than its count");
    atoms.push({
      element: line.slice(31, 34).trim(),
      position: coordinates(
        Number(line.slice(0, 10)),
        Number(line.slice(10, 20)),
        Number(line.slice(20, 30)),
        at + 1,
      ),
    });
  }
  const bonds: MolfileBond[] = [];
  for (let i = 0; i < bondCount; i++) {
    const at = countsAt + 1 + atomCount + i;
    const line = lines[at] ?? "";
    bonds.push(
      bondOf(Number(line.slice(0, 3)), Number(line.slice(3, 6)), Number(line.slice(6, 9)), atomCount, at + 1),
    );
  }
  return { atoms, bonds };
}

function bondOf(a: number, b: number, order: number, atomCount: number, line: number): MolfileBond {
  const inRange = (index: number) => Number.isInteger(index) && index >= 1 && index <= atomCount;
  if (!inRange(a) || !inRange(b) || !Number.isInteger(order))
    throw new StructureParseError(line, "bond names no atom of the block");
  return { a: a - 1, b: b - 1, order };
}

/**
 * The V3000 `BEGIN ATOM` and `BEGIN BOND` blocks (`M  V30 index type x y z aamap …` and
 * `M  V30 index type atom1 atom2 …`); a line ending in `-` continues on the next.
 */
function readV3000(lines: readonly string[], countsAt: number): Omit<MolfileMolecule, "name"> {
  const entries: { readonly fields: string[]; readonly line: number }[] = [];
  let pending = "";
  for (let at = countsAt + 1; at < lines.length; at++) {
    const line = lines[at] ?? "";
    if (!line.startsWith("M  V30 ")) continue;
    const content = pending + line.slice(7);
    if (content.endsWith("-")) {
      pending = content.slice(0, -1);
      continue;
    }
    pending = "";
    entries.push({ fields: content.trim().split(/\s+/), line: at + 1 });
  }
  const block = (name: string) => {
    const begin = entries.findIndex((entry) => entry.fields.join(" ") === `BEGIN ${name}`);
    if (begin < 0) return [];
    const end = entries.findIndex((entry, at) => at > begin && entry.fields.join(" ") === `END ${name}`);
    return entries.slice(begin + 1, end < 0 ? entries.length : end);
  };
  const atomRows = block("ATOM");
  if (atomRows.length === 0) throw new StructureParseError(0, "V3000 molblock without an atom block");
  const indexOf = new Map<string, number>();
  const atoms = atomRows.map(({ fields, line }, at) => {
    indexOf.set(fields[0] ?? "", at);
    return {
      element: fields[1] ?? "",
      position: coordinates(Number(fields[2]), Number(fields[3]), Number(fields[4]), line),
    };
  });
  const bonds = block("BOND").map(({ fields, line }) =>
    bondOf(
      (indexOf.get(fields[2] ?? "") ?? -1) + 1,
      (indexOf.get(fields[3] ?? "") ?? -1) + 1,
      Number(fields[1]),
      atoms.length,
      line,
    ),
  );
  return { atoms, bonds };
}

/** Hydrogen and its isotopes as a CTfile may write them (`D`, `T`). */
const HYDROGENS: ReadonlySet<string> = new Set(["H", "D", "T"]);

/** The molecule without hydrogens (H, D, T), atom order otherwise kept (bonds re-indexed). */
export function withoutHydrogens(molecule: MolfileMolecule): MolfileMolecule {
  const newIndex = new Map<number, number>();
  const atoms: MolfileAtom[] = [];
  molecule.atoms.forEach((atom, index) => {
    if (HYDROGENS.has(atom.element.toUpperCase())) return;
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
