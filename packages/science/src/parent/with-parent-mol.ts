import type { PreparedCompound } from "../prepare-compound.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { rememberDescriptors } from "./mol-memo.ts";

interface SharedParent {
  readonly rdkit: RDKit;
  readonly smiles: string;
  readonly mol: Mol;
}

// One parent molecule per thread, shared by every module that reads the same compound (issue 10
// item 4: re-reading the parent from its SMILES in each of eight modules cost ~10 parses per
// compound). The module framework runs all modules on compound n before compound n + 1, so the
// previous parent is deleted as soon as another is asked for: at most one such Mol is alive
// (the wasm heap is not garbage collected). Readers must not modify it (no *_in_place calls).
let shared: SharedParent | null = null;

/**
 * Runs `read` on an RDKit molecule of the compound's parent (parsed from its canonical SMILES).
 * The molecule is shared with the other modules reading the same parent and owned here: `read`
 * must neither delete nor modify it.
 */
export function withParentMol<T>(
  compound: PreparedCompound & { ok: true },
  read: (mol: Mol, rdkit: RDKit) => T,
): T {
  return read(
    sharedParentMol(compound.rdkit, compound.chem.parent_smiles, compound.parentDescriptors),
    compound.rdkit,
  );
}

function sharedParentMol(rdkit: RDKit, smiles: string, descriptors: string | undefined): Mol {
  if (shared !== null && shared.rdkit === rdkit && shared.smiles === smiles) return shared.mol;
  releaseParentMol();
  const mol = rdkit.get_mol(smiles);
  if (mol === null) throw new Error(`RDKit could not re-read the parent ${smiles}`);
  // The preparation read these descriptors on this same SMILES (prepare-compound.ts).
  if (descriptors !== undefined) rememberDescriptors(mol, descriptors);
  shared = { rdkit, smiles, mol };
  return mol;
}

/** Deletes the shared parent molecule (a worker calls it after each compound; safe to repeat). */
export function releaseParentMol(): void {
  const last = shared;
  shared = null;
  last?.mol.delete();
}
