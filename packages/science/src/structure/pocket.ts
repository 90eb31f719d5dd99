import type { PocketBox as DockingBox } from "./pocket-box.ts";
import type { ParsedStructure, StructureAtom } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

/** A box's geometry (centre and edge lengths, Å): the docking box of pocket-box.ts without its source. */
export type PocketBox = Pick<DockingBox, "center" | "size">;

/** A reference ligand named by residue: name, chain, number (`RES:CHAIN:NUM`, e.g. `STI:A:201`). */
export interface LigandResidue {
  readonly resName: string;
  readonly chain: string;
  readonly resSeq: number;
}

/** Parses `RES:CHAIN:NUM`; null when the text is not of that shape. */
export function parseLigandResidue(text: string): LigandResidue | null {
  const match = /^([A-Za-z0-9]{1,3}):([A-Za-z0-9]?):(-?\d+)$/.exec(text.trim());
  if (match === null) return null;
  return { resName: (match[1] ?? "").toUpperCase(), chain: match[2] ?? "", resSeq: Number(match[3]) };
}

/** The heavy atoms of a named residue; empty when the structure has none. */
export function ligandResidueAtoms(structure: ParsedStructure, ligand: LigandResidue): StructureAtom[] {
  return structure.atoms.filter(
    (atom) =>
      atom.resName === ligand.resName &&
      atom.chain === ligand.chain &&
      atom.resSeq === ligand.resSeq &&
      atom.element !== "H",
  );
}

/** True when the point lies inside the box (faces included). */
export function isInBox(box: PocketBox, point: Vec3): boolean {
  return point.every((value, axis) => Math.abs(value - (box.center[axis] ?? 0)) <= (box.size[axis] ?? 0) / 2);
}

/** The smallest distance from a point to any of the reference points, Å. */
export function nearestDistance(point: Vec3, references: readonly Vec3[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const reference of references) {
    const d = Math.hypot(point[0] - reference[0], point[1] - reference[1], point[2] - reference[2]);
    if (d < best) best = d;
  }
  return best;
}
