import type { Mol } from "./rdkit.ts";

// RDKit's molecule JSON (`get_json`: the CommonChem format with RDKit's `rdkitRepresentation`
// extension), read by the analyzers that need the graph RDKit WebAssembly does not expose (Ertl's
// S/P polar surface, the Uncharger port, compound classes, Murcko scaffolds, the SA score's graph,
// QED's ring count, interaction profiles). One type and one parse per molecule (issue 29 item 6):
// it was parsed separately by six modules, each with its own partial type.

/** One atom; an absent field takes the document's `defaults.atom`. */
export interface RDKitJsonAtom {
  readonly z?: number;
  readonly chg?: number;
  readonly impHs?: number;
  readonly isotope?: number;
  readonly nRad?: number;
}

/** One bond between two atom indices; an absent order takes `defaults.bond` (Kekulé orders). */
export interface RDKitJsonBond {
  readonly bo?: number;
  readonly atoms?: readonly [number, number];
}

/** RDKit's own extension: aromaticity and the ring perception it computed. */
export interface RDKitJsonExtension {
  readonly name?: string;
  readonly aromaticAtoms?: readonly number[];
  readonly aromaticBonds?: readonly number[];
  readonly atomRings?: readonly (readonly number[])[];
}

export interface RDKitJsonMolecule {
  readonly atoms?: readonly RDKitJsonAtom[];
  readonly bonds?: readonly RDKitJsonBond[];
  readonly conformers?: readonly { readonly dim: number; readonly coords: readonly (readonly number[])[] }[];
  readonly extensions?: readonly RDKitJsonExtension[];
}

export interface RDKitJson {
  readonly defaults?: { readonly atom?: RDKitJsonAtom; readonly bond?: { readonly bo?: number } };
  readonly molecules?: readonly RDKitJsonMolecule[];
}

// Remembered per Mol handle, as molDescriptors and patternFingerprint are: the shared parent is
// read by several modules, and a WeakMap lets a deleted molecule's entry go with its handle. The
// analyzers never edit a molecule in place (they build new ones), so the graph cannot go stale.
const parsed = new WeakMap<Mol, RDKitJson>();

/** The molecule's JSON, parsed once per Mol; read-only (the same object is handed to every reader). */
export function molJson(mol: Mol): RDKitJson {
  let doc = parsed.get(mol);
  if (doc === undefined) {
    doc = parseRDKitJson(mol.get_json());
    parsed.set(mol, doc);
  }
  return doc;
}

/** Parses RDKit's JSON text (a query molecule's, or one read outside a Mol). */
export function parseRDKitJson(text: string): RDKitJson {
  return JSON.parse(text) as RDKitJson;
}

/** The RDKit extension of a molecule (aromatic atoms and bonds, rings), if written. */
export function rdkitExtensionOf(molecule: RDKitJsonMolecule | undefined): RDKitJsonExtension | undefined {
  return molecule?.extensions?.find((extension) => extension.name === "rdkitRepresentation");
}
