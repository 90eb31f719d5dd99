import type { StructureAtom } from "./structure-atom.ts";

// The two choices every structure reader (PDB, PDBQT, mmCIF) makes the same way, so that every
// consumer of StructureAtom sees one atom set: which alternate location is kept, and which element an
// atom without one is.

/**
 * The readers' one alternate-location policy: an atom without an indicator is kept, and of an atom
 * with several locations only the first the file gives (in practice `A`). This is PLIP's reading
 * (its default keeps the first altloc) and, on every structure of this repository, ProDy's default
 * `altloc="A"`, so the interaction profile and the Cα network are built on the same atoms. An atom
 * is the same atom across locations by chain, residue number, insertion code and name.
 */
export class AlternateLocations {
  private readonly first = new Map<string, string>();

  keeps(atom: StructureAtom): boolean {
    if (atom.altLoc === "") return true;
    const key = `${atom.chain}\u0000${atom.resSeq}\u0000${atom.iCode}\u0000${atom.name}`;
    const first = this.first.get(key);
    if (first === undefined) {
      this.first.set(key, atom.altLoc);
      return true;
    }
    return first === atom.altLoc;
  }
}

/** The element an atom name implies when the file gives none: its first letter (`CA` of a residue is C). */
export function elementFromAtomName(name: string): string {
  return name
    .replace(/[^A-Za-z]/g, "")
    .slice(0, 1)
    .toUpperCase();
}
