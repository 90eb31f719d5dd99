import { type RDKitJson, rdkitExtensionOf } from "../rdkit-json.ts";
import { ScienceError } from "../science-error.ts";
/**
 * The molecular graph RDKit WebAssembly describes in its JSON (`mol.get_json()`, RDKit's
 * commonchem-based format): what the Morgan port and the SA score read from a molecule.
 */
export interface GraphAtom {
  readonly atomicNumber: number;
  /** Implicit plus explicit hydrogens on the atom (RDKit's `impHs`), not H atoms in the graph. */
  readonly hydrogens: number;
  readonly charge: number;
  /** Mass number, 0 when the input named none. */
  readonly isotope: number;
}

export interface GraphBond {
  readonly begin: number;
  readonly end: number;
  /** RDKit's `Bond::BondType` number: 0 zero-order, 1 single, 2 double, 3 triple, 4 quadruple, 12 aromatic, 17 dative. */
  readonly type: number;
}

export interface MoleculeGraph {
  readonly atoms: readonly GraphAtom[];
  readonly bonds: readonly GraphBond[];
  /** RDKit's ring perception (its SSSR, as `RingInfo::atomRings`), atom indices per ring. */
  readonly atomRings: readonly (readonly number[])[];
}

/** RDKit's `Bond::BondType` value of an aromatic bond. */
export const AROMATIC_BOND = 12;
/**
 * The `bo` values RDKit's JSON writes for non-aromatic bonds, which are `Bond::BondType` numbers
 * (zero, single, double, triple, quadruple, dative); other types are refused, not guessed.
 */
const JSON_BOND_TYPES = new Set([0, 1, 2, 3, 4, 17]);

/** A bond order this port does not map onto RDKit's bond types (dative, hydrogen, …). */
export class UnsupportedBondError extends ScienceError<"SA_UNSUPPORTED_BOND"> {
  constructor(message: string) {
    super("SA_UNSUPPORTED_BOND", message);
  }
}

/** Reads the graph from `mol.get_json()`; absent fields take the document's defaults. */
export function moleculeGraph(doc: RDKitJson): MoleculeGraph {
  const molecule = doc.molecules?.[0] ?? {};
  const atomDefaults = { z: 6, impHs: 0, chg: 0, isotope: 0, ...doc.defaults?.atom };
  const bondDefaults = { bo: 1, ...doc.defaults?.bond };
  const rdkitExtension = rdkitExtensionOf(molecule);
  const aromatic = new Set(rdkitExtension?.aromaticBonds ?? []);
  const atoms = (molecule.atoms ?? []).map((raw) => {
    const atom = { ...atomDefaults, ...raw };
    return { atomicNumber: atom.z, hydrogens: atom.impHs, charge: atom.chg, isotope: atom.isotope };
  });
  const bonds = (molecule.bonds ?? []).map((raw, index) => {
    const bond = { ...bondDefaults, ...raw };
    const [begin, end] = bond.atoms ?? [];
    if (begin === undefined || end === undefined) throw new Error(`bond ${index} has no atoms`);
    if (aromatic.has(index)) return { begin, end, type: AROMATIC_BOND };
    if (!JSON_BOND_TYPES.has(bond.bo))
      throw new UnsupportedBondError(`bond order ${bond.bo} has no RDKit bond type in this port`);
    return { begin, end, type: bond.bo };
  });
  return { atoms, bonds, atomRings: rdkitExtension?.atomRings ?? [] };
}
