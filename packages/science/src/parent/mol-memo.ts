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
