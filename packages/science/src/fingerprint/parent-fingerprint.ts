import { chooseParent } from "../parent/choose-parent.ts";
import { lastParentCache } from "../parent/last-parent-cache.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { parseSmiles, type RDKit } from "../rdkit.ts";
import { morganOnBits } from "./morgan.ts";

/**
 * Morgan on-bits of a SMILES's parent (salts and solvents stripped as molecular_logic does), so
 * training rows and queries are featurised the same way. `null` when RDKit refuses the SMILES.
 */
export function parentOnBits(rdkit: RDKit, smiles: string): number[] | null {
  const parsed = parseSmiles(rdkit, smiles);
  if ("error" in parsed) return null;
  try {
    const choice = chooseParent(rdkit, parsed.mol);
    if (choice.fragment_count <= 1) return morganOnBits(parsed.mol);
    const parent = rdkit.get_mol(choice.parent_smiles);
    try {
      return parent?.is_valid() ? morganOnBits(parent) : morganOnBits(parsed.mol);
    } finally {
      parent?.delete();
    }
  } finally {
    parsed.mol.delete();
  }
}

const lastOnBits = lastParentCache<number[]>();

/**
 * Morgan on-bits of a prepared compound's parent, computed once when several modules ask for the
 * same parent (clinical_precedent_prior, toxicity_profile's Tox21 model, uncertainty_quantification).
 */
export function compoundOnBits(compound: PreparedCompound & { ok: true }): number[] {
  return lastOnBits(compound.chem.parent_smiles, () => withParentMol(compound, (mol) => morganOnBits(mol)));
}
