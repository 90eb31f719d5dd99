import { morganOnBits } from "../fingerprint/morgan.ts";
import { IN_DOMAIN_CLASSES } from "../parent/compound-class.ts";
import { molDescriptors } from "../parent/mol-memo.ts";
import { prepareCompound } from "../prepare-compound.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "../scaffold/murcko-scaffold.ts";

/**
 * The RDKit 2D descriptors (RDKit WebAssembly `get_descriptors`) the TDC models read beside the
 * Morgan bits, in column order: size, polarity, lipophilicity (Wildman–Crippen), H-bonding, ring
 * counts, Kier–Hall connectivity and shape indices. `exactmw` is left out (amw carries it).
 */
export const TDC_DESCRIPTORS = [
  "amw",
  "lipinskiHBA",
  "lipinskiHBD",
  "NumRotatableBonds",
  "NumHBD",
  "NumHBA",
  "NumHeavyAtoms",
  "NumAtoms",
  "NumHeteroatoms",
  "NumAmideBonds",
  "FractionCSP3",
  "NumRings",
  "NumAromaticRings",
  "NumAliphaticRings",
  "NumSaturatedRings",
  "NumHeterocycles",
  "NumAromaticHeterocycles",
  "NumSaturatedHeterocycles",
  "NumAliphaticHeterocycles",
  "NumSpiroAtoms",
  "NumBridgeheadAtoms",
  "NumAtomStereoCenters",
  "NumUnspecifiedAtomStereoCenters",
  "labuteASA",
  "tpsa",
  "CrippenClogP",
  "CrippenMR",
  "chi0v",
  "chi1v",
  "chi2v",
  "chi3v",
  "chi4v",
  "chi0n",
  "chi1n",
  "chi2n",
  "chi3n",
  "chi4n",
  "hallKierAlpha",
  "kappa1",
  "kappa2",
  "kappa3",
  "Phi",
] as const;

/** The descriptor row of a parent molecule in {@link TDC_DESCRIPTORS} order. */
export function tdcDescriptorRow(mol: Mol): number[] {
  const d = molDescriptors(mol);
  return TDC_DESCRIPTORS.map((key) => d[key] ?? 0);
}

/** What a TDC model reads of a dataset SMILES, standardized exactly as the runner standardizes a portfolio row. */
export type TdcFeatures =
  | {
      readonly ok: true;
      /** The runner's parent (salts and solvents stripped, then neutralised): the deduplication key. */
      readonly parent: string;
      readonly bits: number[];
      readonly x: number[];
      /** Bemis–Murcko scaffold of the parent ("" when it has no ring): the split key. */
      readonly scaffold: string;
    }
  | { readonly ok: false; readonly reason: "refused" | "out_of_class" };

/**
 * Features of one training SMILES through `prepareCompound`, the runner's own preparation, so the
 * salts in the TDC files (HCl, tosylates, …) are stripped as they are for a customer's row;
 * compounds outside the organic classes (`compound_class`) are left out, as the models refuse them.
 */
export function tdcFeatures(rdkit: RDKit, smiles: string): TdcFeatures {
  const compound = prepareCompound(rdkit, {
    index: 0,
    line: 0,
    candidateId: "",
    name: null,
    smiles,
    metadata: {},
  });
  if (!compound.ok) return { ok: false, reason: "refused" };
  // The radical class (issue 24 item 8) came after the models were fitted: the one Ames row it
  // holds stays among the rows the checked-in figures were computed on. At run time every model
  // refuses a radical all the same (class-domain.ts).
  const { compound_class } = compound.chem;
  if (!IN_DOMAIN_CLASSES.has(compound_class) && compound_class !== "radical")
    return { ok: false, reason: "out_of_class" };
  const mol = rdkit.get_mol(compound.chem.parent_smiles);
  if (mol === null || !mol.is_valid()) {
    mol?.delete();
    return { ok: false, reason: "refused" };
  }
  try {
    let scaffold = "";
    try {
      scaffold = murckoScaffoldSmiles(rdkit, mol);
    } catch {
      scaffold = compound.chem.parent_smiles;
    }
    return {
      ok: true,
      parent: compound.chem.parent_smiles,
      bits: morganOnBits(mol),
      x: tdcDescriptorRow(mol),
      scaffold,
    };
  } finally {
    mol.delete();
  }
}
