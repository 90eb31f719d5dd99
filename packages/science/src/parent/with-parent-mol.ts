import type { PreparedCompound } from "../prepare-compound.ts";
import type { Mol, RDKit } from "../rdkit.ts";

/**
 * Runs `read` on an RDKit molecule of the compound's parent and deletes it afterwards (the wasm
 * heap is not garbage collected). Analyzers share prepared data, not wasm objects, so each
 * re-reads the parent from its canonical SMILES.
 */
export function withParentMol<T>(
  compound: PreparedCompound & { ok: true },
  read: (mol: Mol, rdkit: RDKit) => T,
): T {
  const mol = compound.rdkit.get_mol(compound.chem.parent_smiles);
  if (mol === null) throw new Error(`RDKit could not re-read the parent ${compound.chem.parent_smiles}`);
  try {
    return read(mol, compound.rdkit);
  } finally {
    mol.delete();
  }
}
