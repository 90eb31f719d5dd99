import type { ParsedStructure, Vec3 } from "@svc/science/structure";
import type { DockingBox } from "./docking-results.ts";

// The pocket as the report shows it (issue 25 item 10): the protein residues inside the docking box
// (what the 3D viewer draws around a pose) and, among them, the residues lining the pocket — those
// with a heavy atom within CONTACT_ANGSTROM of a docked pose's heavy atom. 4 Å is the usual contact
// cut-off of binding-site listings (e.g. PDBsum's LIGPLOT contacts use 3.9 Å for non-bonded
// contacts; Laskowski & Swindells, J. Chem. Inf. Model. 2011); PLIP's own interactions are the card's.

/** A residue lines the pocket when one of its heavy atoms is this close to a pose heavy atom, Å. */
export const CONTACT_ANGSTROM = 4;
/** Residues this far outside the box still count as the box's (side chains reaching in), Å. */
const BOX_MARGIN_ANGSTROM = 2;
const WATER = new Set(["HOH", "WAT", "DOD", "H2O"]);

export interface PocketAtom {
  readonly name: string;
  readonly element: string;
  readonly position: Vec3;
}

export interface PocketResidue {
  /** `A:PHE31` style label (chain, name, number and insertion code). */
  readonly label: string;
  readonly chain: string;
  readonly resName: string;
  readonly resSeq: number;
  readonly iCode: string;
  readonly atoms: readonly PocketAtom[];
}

/** The protein residues (heavy atoms, no water; one location per atom, as the reader keeps) with an atom in the box or within its margin. */
export function pocketResidues(structure: ParsedStructure, box: DockingBox): PocketResidue[] {
  const byKey = new Map<
    string,
    { residue: Omit<PocketResidue, "atoms">; atoms: PocketAtom[]; inBox: boolean }
  >();
  for (const atom of structure.atoms) {
    if (atom.element === "H" || atom.element === "D" || WATER.has(atom.resName)) continue;
    if (atom.hetero) continue;
    const key = `${atom.chain}:${atom.resSeq}${atom.iCode}`;
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = {
        residue: {
          label: residueLabel(atom.chain, atom.resName, atom.resSeq, atom.iCode),
          chain: atom.chain,
          resName: atom.resName,
          resSeq: atom.resSeq,
          iCode: atom.iCode,
        },
        atoms: [],
        inBox: false,
      };
      byKey.set(key, entry);
    }
    const position: Vec3 = atom.position;
    entry.atoms.push({ name: atom.name, element: atom.element, position });
    if (!entry.inBox && isNearBox(position, box)) entry.inBox = true;
  }
  return [...byKey.values()]
    .filter((entry) => entry.inBox)
    .map((entry) => ({ ...entry.residue, atoms: entry.atoms }));
}

/** The residues with a heavy atom within `cutoff` Å of any of the pose's heavy atoms, with that distance. */
export function contactResidues(
  residues: readonly PocketResidue[],
  pose: readonly Vec3[],
  cutoff = CONTACT_ANGSTROM,
): { residue: PocketResidue; distance: number }[] {
  const out: { residue: PocketResidue; distance: number }[] = [];
  for (const residue of residues) {
    let nearest = Number.POSITIVE_INFINITY;
    for (const atom of residue.atoms)
      for (const point of pose) {
        const d = Math.hypot(
          atom.position[0] - point[0],
          atom.position[1] - point[1],
          atom.position[2] - point[2],
        );
        if (d < nearest) nearest = d;
      }
    if (nearest <= cutoff) out.push({ residue, distance: nearest });
  }
  return out;
}

/** The residues as PDB ATOM records (wwPDB format v3.3 §9 column layout), for the 3D viewer. */
export function pocketPdb(residues: readonly PocketResidue[]): string {
  const lines: string[] = [];
  let serial = 1;
  for (const residue of residues)
    for (const atom of residue.atoms) {
      const name = atom.name.length < 4 && atom.element.length === 1 ? ` ${atom.name}` : atom.name;
      const [x, y, z] = atom.position;
      lines.push(
        `ATOM  ${String(serial++ % 100000).padStart(5)} ${name.padEnd(4)} ${residue.resName.padStart(3)} ${(residue.chain || " ").slice(0, 1)}${String(residue.resSeq).padStart(4)}${(residue.iCode || " ").slice(0, 1)}   ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${z.toFixed(3).padStart(8)}  1.00  0.00          ${atom.element.padStart(2)}`,
      );
    }
  return `${lines.join("\n")}\nEND\n`;
}

export function residueLabel(chain: string, resName: string, resSeq: number, iCode: string): string {
  return `${chain ? `${chain}:` : ""}${resName}${resSeq}${iCode}`;
}

function isNearBox(point: Vec3, box: DockingBox): boolean {
  return [0, 1, 2].every(
    (axis) =>
      Math.abs((point[axis] as number) - (box.center[axis] as number)) <=
      (box.size[axis] as number) / 2 + BOX_MARGIN_ANGSTROM,
  );
}
