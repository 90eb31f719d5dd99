import type { Vec3 } from "../vec3.ts";

/** One ligand atom; `index` is its 0-based position in the molblock (hydrogens included). */
export interface LigandAtom {
  readonly index: number;
  readonly element: string;
  readonly charge: number;
  /** Aromatic in RDKit's model (its `aromaticAtoms`). */
  readonly aromatic: boolean;
  readonly position: Vec3;
}

export interface LigandBond {
  readonly begin: number;
  readonly end: number;
  /** 1, 2 or 3 (RDKit's Kekulé form); `aromatic` says whether RDKit calls the bond aromatic. */
  readonly order: number;
  readonly aromatic: boolean;
}

/** A posed ligand with its bond graph and RDKit's ring and aromaticity perception. */
export interface LigandStructure {
  readonly atoms: readonly LigandAtom[];
  readonly bonds: readonly LigandBond[];
  /** RDKit's smallest set of smallest rings (atom indices). */
  readonly rings: readonly (readonly number[])[];
}

/** A residue as interactions name it (PLIP names residues by number, type and chain). */
export interface ResidueRef {
  readonly chain: string;
  readonly resSeq: number;
  readonly iCode: string;
  readonly resName: string;
}
