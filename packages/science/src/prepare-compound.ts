import type { CompoundRow } from "./compound-row.ts";
import { round } from "./numeric/round.ts";
import { atomStereocentres } from "./parent/atom-stereocentres.ts";
import { chooseParent, type ParentChoice } from "./parent/choose-parent.ts";
import {
  type CompoundClass,
  classifyInput,
  nonDruglikeElements,
  radicalAtoms,
} from "./parent/compound-class.ts";
import { molDescriptors, molDescriptorsJson, molSmiles } from "./parent/mol-memo.ts";
import { neutraliseParent } from "./parent/neutralise-parent.ts";
import { type Mol, parseSmiles, type RDKit } from "./rdkit.ts";
import { molJson, type RDKitJson } from "./rdkit-json.ts";

/** RDKit descriptors of the standardized parent, rounded so the JSON is stable. */
export interface Descriptors {
  readonly exact_mw: number;
  readonly average_mw: number;
  readonly clogp: number;
  readonly tpsa: number;
  readonly hbd: number;
  readonly hba: number;
  readonly lipinski_hbd: number;
  readonly lipinski_hba: number;
  readonly rotatable_bonds: number;
  readonly aromatic_rings: number;
  readonly fraction_csp3: number;
  readonly heavy_atoms: number;
  readonly atom_stereo_centers: number;
  readonly unspecified_atom_stereo_centers: number;
}

export interface ParsedChemistry {
  readonly canonical_smiles: string;
  readonly inchi: string | null;
  readonly inchikey: string | null;
  readonly fragment_count: number;
  /**
   * The parent: salts and solvents stripped, largest organic fragment kept (`PARENT_RULE`), then
   * its acids and bases neutralised (`NEUTRALISATION_RULE`): a salt and its free form share it.
   */
  readonly parent_smiles: string;
  /** Names of the fragments stripped as salts or solvents. */
  readonly stripped_fragments: readonly string[];
  /** Two different fragments tied for parent; the first by canonical SMILES was kept. */
  readonly parent_ambiguous: boolean;
  /** No fragment holds organic carbon (an inorganic input: Li2CO3, NaCl, cisplatin): the whole input is the parent. */
  readonly no_organic_parent: boolean;
  /** The parent fragment's charges were neutralised (protons added to anions or removed from cations). */
  readonly parent_neutralised: boolean;
  /** The parent keeps a cation with no proton to lose (quaternary N, N-alkyl pyridinium). */
  readonly permanent_charge: boolean;
  readonly parent_inchikey: string | null;
  readonly net_charge: number;
  readonly parent_net_charge: number;
  /**
   * What kind of compound it is (`COMPOUND_CLASS_RULE`, issue 24 item 2): only `organic` and
   * `organic_salt` are inside the models' domain; for inorganic, organometallic, metal-complex,
   * polymer-or-fragment and radical inputs the whole input is the parent (no salt stripped, nothing
   * neutralised).
   */
  readonly compound_class: CompoundClass;
  /** Why that class, in words (the metal, the missing organic carbon, the elements outside the drug-like set). */
  readonly compound_class_reason: string;
  readonly descriptors: Descriptors;
}

/**
 * A row with what RDKit could make of its SMILES: the input every module works on. `rdkit` is the
 * instance that parsed it, so analyzers can re-read `chem.parent_smiles` without loading another;
 * it is non-enumerable, so a compound copied to another thread carries plain data only.
 */
export type PreparedCompound =
  | {
      readonly row: CompoundRow;
      readonly ok: true;
      readonly chem: ParsedChemistry;
      readonly rdkit: RDKit;
      /**
       * RDKit's descriptor JSON (`get_descriptors`) of the parent, when the preparation read the
       * parent from `chem.parent_smiles` itself as the analyzers re-read it (with-parent-mol.ts): the
       * same SMILES read by the same RDKit build gives the same JSON, so the analysis does not compute
       * it again (~1 ms, a twentieth of a compound's CPU; issue 42 item 2). Absent otherwise.
       */
      readonly parentDescriptors?: string;
    }
  | {
      readonly row: CompoundRow;
      readonly ok: false;
      readonly error: string;
      /**
       * True when RDKit never judged the structure (over the size limits, a fault or the time
       * budget; issue 10 item 2): it may well be valid, so it is not counted as unparseable.
       */
      readonly unassessed?: boolean;
    };

/**
 * Parses and standardizes one SMILES with RDKit. Every wasm object is deleted before returning:
 * the wasm heap is not garbage collected, so a leak here would grow with the portfolio.
 */
export function prepareCompound(rdkit: RDKit, row: CompoundRow): PreparedCompound {
  if (row.smiles === "") return { row, ok: false, error: "empty SMILES" };
  const parsed = parseSmiles(rdkit, row.smiles);
  if ("error" in parsed) return { row, ok: false, error: parsed.error };
  const { mol } = parsed;
  try {
    if (mol.get_num_atoms() === 0) return { row, ok: false, error: "SMILES has no atoms" };
    // The class gate comes first: a metal or inorganic input is not salt-stripped (issue 24 item 2).
    const gate = classifyInput(mol);
    const choice =
      gate.compound_class === null
        ? chooseParent(rdkit, mol)
        : wholeInput(rdkit, mol, gate.compound_class === "inorganic");
    const fragment =
      choice.fragment_count > 1 && gate.compound_class === null ? reparse(rdkit, choice.parent_smiles) : null;
    const neutral =
      gate.compound_class === null
        ? neutraliseParent(rdkit, fragment ?? mol)
        : { neutralised: false, permanent_charge: false, smiles: "" };
    const neutralParent = neutral.neutralised ? reparse(rdkit, neutral.smiles) : null;
    const parent = neutralParent ?? fragment;
    if (parent !== fragment) fragment?.delete();
    try {
      const target = parent ?? mol;
      const parentSmiles = molSmiles(target);
      // The SMILES `target` was read from. When it is the parent SMILES itself, `target` is the very
      // molecule every analyzer re-reads (with-parent-mol.ts: get_mol of the same string), so its
      // descriptor JSON can be handed on unchanged; otherwise the atom order differs and with it the
      // descriptors' last bits (sums in another order), so none is handed on.
      const targetSource =
        neutralParent !== null ? neutral.smiles : fragment !== null ? choice.parent_smiles : row.smiles;
      const foreign = gate.compound_class === null ? nonDruglikeElements(target) : [];
      const radicals = gate.compound_class === null && foreign.length === 0 ? radicalAtoms(target) : [];
      const compoundClass: CompoundClass =
        gate.compound_class ??
        (foreign.length > 0
          ? "non_druglike_elements"
          : radicals.length > 0
            ? "radical"
            : choice.stripped.length > 0
              ? "organic_salt"
              : "organic");
      const classReason =
        gate.compound_class !== null
          ? gate.reason
          : foreign.length > 0
            ? `the parent holds ${foreign.join(", ")}, outside the drug-like elements H C N O F P S Cl Br I`
            : radicals.length > 0
              ? `open-shell: ${radicals.length} atom(s) of the parent with an unpaired electron (${[...new Set(radicals)].join(", ")})`
              : choice.stripped.length > 0
                ? `organic parent; stripped: ${choice.stripped.join(", ")}`
                : "organic, drug-like elements only";
      const inchi = safe(() => mol.get_inchi());
      const parentInchi = parent === null ? inchi : safe(() => parent.get_inchi());
      return withRDKit(rdkit, {
        row,
        ok: true,
        chem: {
          canonical_smiles: molSmiles(mol),
          inchi,
          inchikey: inchi ? safe(() => rdkit.get_inchikey_for_inchi(inchi)) : null,
          fragment_count: choice.fragment_count,
          parent_smiles: parentSmiles,
          stripped_fragments: choice.stripped,
          parent_ambiguous: choice.parent_ambiguous,
          no_organic_parent: choice.no_organic_parent,
          parent_neutralised: neutral.neutralised,
          permanent_charge: neutral.permanent_charge,
          parent_inchikey: parentInchi ? safe(() => rdkit.get_inchikey_for_inchi(parentInchi)) : null,
          net_charge: netCharge(molJson(mol)),
          parent_net_charge: netCharge(molJson(target)),
          compound_class: compoundClass,
          compound_class_reason: classReason,
          descriptors: readDescriptors(target),
        },
        ...(targetSource === parentSmiles ? { parentDescriptors: molDescriptorsJson(target) } : {}),
      });
    } finally {
      parent?.delete();
    }
  } finally {
    mol.delete();
  }
}

/**
 * Attaches the RDKit instance as a non-enumerable property: analyzers in the same thread use it,
 * while JSON and structured clone (postMessage to or from a worker) skip it and copy plain data.
 */
function withRDKit(rdkit: RDKit, compound: Omit<PreparedCompound & { ok: true }, "rdkit">): PreparedCompound {
  return Object.defineProperty(compound, "rdkit", { value: rdkit, enumerable: false }) as PreparedCompound;
}

/** No parent is invented for an inorganic, organometallic or metal-complex input: it is kept whole. */
function wholeInput(rdkit: RDKit, mol: Mol, inorganic: boolean): ParentChoice {
  const choice = chooseParent(rdkit, mol);
  return {
    parent_smiles: molSmiles(mol),
    fragment_count: choice.fragment_count,
    stripped: [],
    parent_ambiguous: false,
    no_organic_parent: inorganic || choice.no_organic_parent,
  };
}

function reparse(rdkit: RDKit, smiles: string): Mol | null {
  const parent = rdkit.get_mol(smiles);
  if (parent?.is_valid()) return parent;
  parent?.delete();
  // A fragment RDKit wrote itself always re-parses; if it ever did not, the whole input is used.
  return null;
}

function netCharge(doc: RDKitJson): number {
  let total = 0;
  for (const molecule of doc.molecules ?? []) for (const atom of molecule.atoms ?? []) total += atom.chg ?? 0;
  return total;
}

function readDescriptors(mol: Mol): Descriptors {
  const d = molDescriptors(mol);
  const stereo = atomStereocentres(mol);
  const num = (key: string, digits: number) => round(d[key] ?? Number.NaN, digits);
  return {
    exact_mw: num("exactmw", 4),
    average_mw: num("amw", 3),
    clogp: num("CrippenClogP", 3),
    tpsa: num("tpsa", 2),
    hbd: num("NumHBD", 0),
    hba: num("NumHBA", 0),
    lipinski_hbd: num("lipinskiHBD", 0),
    lipinski_hba: num("lipinskiHBA", 0),
    rotatable_bonds: num("NumRotatableBonds", 0),
    aromatic_rings: num("NumAromaticRings", 0),
    fraction_csp3: num("FractionCSP3", 3),
    heavy_atoms: num("NumHeavyAtoms", 0),
    // The one stereocentre count of every module (issue 24 item 5).
    atom_stereo_centers: stereo.total,
    unspecified_atom_stereo_centers: stereo.unspecified,
  };
}

function safe<T>(compute: () => T): T | null {
  try {
    const value = compute();
    return value === "" ? null : value;
  } catch {
    return null;
  }
}
