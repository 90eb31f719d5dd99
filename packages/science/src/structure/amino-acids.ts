import type { ParsedStructure, StructureAtom } from "./structure-atom.ts";

/**
 * Residue names read as amino acids: the 20 standard ones plus the non-standard names ProDy 2.3
 * counts as protein (`prody/atomic/flags.py`, STANDARDAA and NONSTANDARD), so that our Cα set is
 * the one ProDy's `calpha` selection gives and the two ANMs are built on the same nodes.
 */
export const AMINO_ACIDS: ReadonlySet<string> = new Set([
  ...["ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE"],
  ...["LEU", "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL"],
  ...["ASX", "GLX", "CSO", "CYX", "HIP", "HID", "HIE", "HSD", "HSE", "HSP", "MSE", "CME"],
  ...["SEC", "SEP", "TPO", "PTR", "PHD", "XLE", "XAA", "MEN", "CSB"],
]);

/**
 * The Cα atoms of amino-acid residues (ProDy's `calpha`: name CA in an amino-acid residue); the
 * reader has already kept one location per atom (atom-record-policy.ts).
 */
export function selectCalphas(structure: ParsedStructure): StructureAtom[] {
  return structure.atoms.filter((atom) => atom.name === "CA" && AMINO_ACIDS.has(atom.resName));
}

/** The chains holding at least one amino-acid Cα, in file order. */
export function proteinChains(structure: ParsedStructure): string[] {
  return [...new Set(selectCalphas(structure).map((atom) => atom.chain))];
}
