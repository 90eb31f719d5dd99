import { molDescriptors } from "../parent/mol-memo.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { parseMatches } from "../substructure/screened-query.ts";

/** RDKit descriptors the solubility models read, in a fixed order (the model file records it). */
export const SOLUBILITY_DESCRIPTORS = [
  "clogp",
  "mw",
  "rotatable_bonds",
  "aromatic_proportion",
  "tpsa",
  "hbd",
  "hba",
  "fsp3",
  "aromatic_rings",
  "mr",
  "rings",
  "heavy_atoms",
  "labute_asa",
  "heteroatoms",
] as const;

export type SolubilityDescriptors = Readonly<Record<(typeof SOLUBILITY_DESCRIPTORS)[number], number>>;

const aromaticAtom = new WeakMap<RDKit, Mol>();

/**
 * The descriptors of ESOL (Delaney 2004: clogP, MW, rotatable bonds, aromatic proportion = aromatic
 * atoms / heavy atoms) plus ten more RDKit descriptors used by the kernel model, all from RDKit
 * WebAssembly on the molecule as given.
 */
export function solubilityDescriptors(rdkit: RDKit, mol: Mol): SolubilityDescriptors {
  let query = aromaticAtom.get(rdkit);
  if (query === undefined) {
    const created = rdkit.get_qmol("a");
    if (created === null) throw new Error("aromatic atom query does not parse");
    query = created;
    aromaticAtom.set(rdkit, query);
  }
  const d = molDescriptors(mol);
  const heavy = d.NumHeavyAtoms ?? 0;
  const aromatic = parseMatches(mol.get_substruct_matches(query)).length;
  const value = (key: string) => d[key] ?? Number.NaN;
  return {
    clogp: value("CrippenClogP"),
    mw: value("amw"),
    rotatable_bonds: value("NumRotatableBonds"),
    aromatic_proportion: heavy === 0 ? 0 : aromatic / heavy,
    tpsa: value("tpsa"),
    hbd: value("NumHBD"),
    hba: value("NumHBA"),
    fsp3: value("FractionCSP3"),
    aromatic_rings: value("NumAromaticRings"),
    mr: value("CrippenMR"),
    rings: value("NumRings"),
    heavy_atoms: heavy,
    labute_asa: value("labuteASA"),
    heteroatoms: value("NumHeteroatoms"),
  };
}

/** The descriptors as a vector in {@link SOLUBILITY_DESCRIPTORS} order. */
export function descriptorVector(d: SolubilityDescriptors): number[] {
  return SOLUBILITY_DESCRIPTORS.map((name) => d[name]);
}
