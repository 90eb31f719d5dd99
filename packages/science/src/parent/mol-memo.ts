import type { Mol } from "../rdkit.ts";

// RDKit's descriptor set (`get_descriptors`, ~1.5 ms) was computed five times per compound on the
// same shared parent (preparation, ADMET twice, solubility, manufacturability, uncertainty;
// issue 10 item 4). Remembered per Mol handle: the same molecule gives the same JSON, and a
// WeakMap lets a deleted molecule's entry go with its handle.
const descriptorJson = new WeakMap<Mol, string>();

/** RDKit's descriptor JSON of `mol` (`get_descriptors`), computed once per Mol. */
export function molDescriptorsJson(mol: Mol): string {
  let json = descriptorJson.get(mol);
  if (json === undefined) {
    json = mol.get_descriptors();
    descriptorJson.set(mol, json);
  }
  return json;
}

/** RDKit's descriptors of `mol` (`get_descriptors`), parsed; the JSON is computed once per Mol. */
export function molDescriptors(mol: Mol): Record<string, number> {
  return JSON.parse(molDescriptorsJson(mol)) as Record<string, number>;
}

/**
 * Remembers `json` as `mol`'s descriptor JSON: only for the JSON `get_descriptors` gave on the
 * same SMILES read the same way (prepare-compound.ts's `parentDescriptors` for the shared parent).
 */
export function rememberDescriptors(mol: Mol, json: string): void {
  descriptorJson.set(mol, json);
}

// The preparation writes the same input molecule's canonical SMILES up to four times (the parent
// choice's whole molecule, the neutraliser, the parent and the canonical SMILES of a one-fragment
// neutral input; issue 42 item 2). Remembered per Mol handle like the descriptors: callers never
// modify these molecules in place.
const smilesOf = new WeakMap<Mol, string>();

/** RDKit's canonical SMILES of `mol` (`get_smiles()`), computed once per Mol. */
export function molSmiles(mol: Mol): string {
  let smiles = smilesOf.get(mol);
  if (smiles === undefined) {
    smiles = mol.get_smiles();
    smilesOf.set(mol, smiles);
  }
  return smiles;
}
