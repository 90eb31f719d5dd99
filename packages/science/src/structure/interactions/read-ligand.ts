import type { RDKit } from "../../rdkit.ts";
import { ScienceError } from "../../science-error.ts";
import type { LigandStructure } from "./complex-structure.ts";

interface RDKitJson {
  readonly defaults: { readonly atom: { readonly z: number; readonly chg: number } };
  readonly molecules: readonly {
    readonly atoms: readonly { readonly z?: number; readonly chg?: number }[];
    readonly bonds: readonly { readonly bo?: number; readonly atoms: readonly [number, number] }[];
    readonly conformers?: readonly { readonly dim: number; readonly coords: readonly number[][] }[];
    readonly extensions?: readonly {
      readonly name: string;
      readonly aromaticAtoms?: readonly number[];
      readonly aromaticBonds?: readonly number[];
      readonly atomRings?: readonly number[][];
    }[];
  }[];
}

const SYMBOLS = [
  "",
  "H",
  "HE",
  "LI",
  "BE",
  "B",
  "C",
  "N",
  "O",
  "F",
  "NE",
  "NA",
  "MG",
  "AL",
  "SI",
  "P",
  "S",
  "CL",
  "AR",
  "K",
  "CA",
  "SC",
  "TI",
  "V",
  "CR",
  "MN",
  "FE",
  "CO",
  "NI",
  "CU",
  "ZN",
  "GA",
  "GE",
  "AS",
  "SE",
  "BR",
  "KR",
  "RB",
  "SR",
  "Y",
  "ZR",
  "NB",
  "MO",
  "TC",
  "RU",
  "RH",
  "PD",
  "AG",
  "CD",
  "IN",
  "SN",
  "SB",
  "TE",
  "I",
  "XE",
  "CS",
  "BA",
  "LA",
  "CE",
  "PR",
  "ND",
  "PM",
  "SM",
  "EU",
  "GD",
  "TB",
  "DY",
  "HO",
  "ER",
  "TM",
  "YB",
  "LU",
  "HF",
  "TA",
  "W",
  "RE",
  "OS",
  "IR",
  "PT",
  "AU",
  "HG",
  "TL",
  "PB",
  "BI",
];

/** Error codes of ligand reading (stable; the runner maps them to a compound's `unassessed` reason). */
export class LigandReadError extends ScienceError<"LIGAND_UNPARSEABLE" | "LIGAND_NOT_3D"> {}

/**
 * Reads a posed ligand from a molblock (SDF/MOL, e.g. a docked pose) through RDKit: atoms in file order with
 * hydrogens kept, Kekulé bond orders, and RDKit's aromaticity and SSSR rings, which the profiler's ligand
 * atom typing uses. Throws `LigandReadError` when RDKit refuses the block or it carries no 3D coordinates.
 */
export function readLigandMolblock(rdkit: RDKit, molblock: string): LigandStructure {
  const mol = rdkit.get_mol(molblock, JSON.stringify({ removeHs: false }));
  if (mol === null || !mol.is_valid()) {
    mol?.delete();
    throw new LigandReadError("LIGAND_UNPARSEABLE", "RDKit could not read or sanitize the ligand molblock");
  }
  try {
    const json = JSON.parse(mol.get_json()) as RDKitJson;
    const molecule = json.molecules[0];
    const conformer = molecule?.conformers?.[0];
    if (molecule === undefined || conformer === undefined || conformer.dim !== 3) {
      throw new LigandReadError("LIGAND_NOT_3D", "the ligand molblock has no 3D coordinates");
    }
    const representation = molecule.extensions?.find((e) => e.name === "rdkitRepresentation");
    const aromaticAtoms = new Set(representation?.aromaticAtoms ?? []);
    const aromaticBonds = new Set(representation?.aromaticBonds ?? []);
    return {
      atoms: molecule.atoms.map((atom, index) => {
        const c = conformer.coords[index] ?? [0, 0, 0];
        return {
          index,
          element: SYMBOLS[atom.z ?? json.defaults.atom.z] ?? "X",
          charge: atom.chg ?? json.defaults.atom.chg,
          aromatic: aromaticAtoms.has(index),
          position: [c[0] ?? 0, c[1] ?? 0, c[2] ?? 0] as const,
        };
      }),
      bonds: molecule.bonds.map((bond, index) => ({
        begin: bond.atoms[0],
        end: bond.atoms[1],
        order: bond.bo ?? 1,
        aromatic: aromaticBonds.has(index),
      })),
      rings: representation?.atomRings ?? [],
    };
  } finally {
    mol.delete();
  }
}
