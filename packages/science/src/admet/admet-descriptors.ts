import { molDescriptors } from "../parent/mol-memo.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import { parseMatches } from "../substructure/screened-query.ts";
import { sulfurPhosphorusPsa } from "./tpsa-sulfur-phosphorus.ts";

/** RDKit descriptors of a parent that the ADMET rules read (unrounded). */
export interface AdmetDescriptors {
  /** Average molecular weight. */
  readonly mw: number;
  /** Wildman–Crippen logP (J. Chem. Inf. Comput. Sci. 1999, 39, 868): SwissADME's WLOGP. */
  readonly wlogp: number;
  /** Wildman–Crippen molar refractivity. */
  readonly mr: number;
  /** Ertl TPSA over N and O (RDKit's default; no S or P contributions): what Veber and Egan used. */
  readonly tpsa: number;
  /** Ertl TPSA with polar S and P (RDKit's `includeSandP=True`): BOILED-Egg's axis (issue 24 item 4). */
  readonly tpsa_sp: number;
  /** Lipinski's donors: NH and OH count. */
  readonly hbd: number;
  /** Lipinski's acceptors: N and O count. */
  readonly hba: number;
  /** Strict rotatable bonds (RDKit). */
  readonly rotatable_bonds: number;
  readonly fsp3: number;
  readonly heavy_atoms: number;
  /** All atoms with hydrogens, as Ghose counts them. */
  readonly atoms: number;
  readonly rings: number;
  readonly carbons: number;
  readonly heteroatoms: number;
}

const carbon = new WeakMap<RDKit, Mol>();

/** The descriptors of {@link AdmetDescriptors} from RDKit WebAssembly. */
export function admetDescriptors(rdkit: RDKit, mol: Mol): AdmetDescriptors {
  let query = carbon.get(rdkit);
  if (query === undefined) {
    const created = rdkit.get_qmol("[#6]");
    if (created === null) throw new Error("carbon query does not parse");
    query = created;
    carbon.set(rdkit, query);
  }
  const d = molDescriptors(mol);
  const value = (key: string) => d[key] ?? Number.NaN;
  return {
    mw: value("amw"),
    wlogp: value("CrippenClogP"),
    mr: value("CrippenMR"),
    tpsa: value("tpsa"),
    tpsa_sp: value("tpsa") + sulfurPhosphorusPsa(molJson(mol)),
    hbd: value("lipinskiHBD"),
    hba: value("lipinskiHBA"),
    rotatable_bonds: value("NumRotatableBonds"),
    fsp3: value("FractionCSP3"),
    heavy_atoms: value("NumHeavyAtoms"),
    atoms: value("NumAtoms"),
    rings: value("NumRings"),
    carbons: parseMatches(mol.get_substruct_matches(query)).length,
    heteroatoms: value("NumHeteroatoms"),
  };
}
