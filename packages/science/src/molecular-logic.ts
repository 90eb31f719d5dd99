import { type CompoundFinding, evidenceId, type MethodCard, ratio } from "./analysis-module.ts";
import { defineModule, type ParsedCompound } from "./define-module.ts";
import { FirstEntries, SUMMARY_LIST_LIMIT } from "./first-entries.ts";
import { PARENT_RULE } from "./parent/choose-parent.ts";
import { COMPOUND_CLASS_RULE, type CompoundClass } from "./parent/compound-class.ts";
import { NEUTRAL_PARENT_VALIDATION, NEUTRALISATION_RULE } from "./parent/neutralise-parent.ts";
import type { PreparedCompound } from "./prepare-compound.ts";

export interface MolecularLogicFinding extends CompoundFinding {
  readonly line: number;
  /** `unassessed`: RDKit never judged it (size guard, fault, time budget); not a parse failure. */
  readonly status: "parsed" | "unparseable" | "unassessed";
  readonly error: string | null;
  readonly input_smiles: string;
  readonly canonical_smiles: string | null;
  readonly inchikey: string | null;
  readonly parent_smiles: string | null;
  readonly parent_inchikey: string | null;
  readonly fragment_count: number | null;
  readonly salt_or_mixture_stripped: boolean;
  /** Names of the fragments stripped as salts or solvents (data/PROVENANCE.md). */
  readonly stripped_fragments: readonly string[];
  readonly parent_ambiguous: boolean;
  readonly no_organic_parent: boolean;
  /** The parent's acids or bases were neutralised (`NEUTRALISATION_RULE`). */
  readonly parent_neutralised: boolean;
  /** The parent keeps a cation with no proton to lose (quaternary N): a permanent charge. */
  readonly permanent_charge: boolean;
  readonly net_charge: number | null;
  readonly parent_net_charge: number | null;
  readonly stereo_centers: number | null;
  readonly unspecified_stereo_centers: number | null;
  /** Candidate id of the first row with the same parent InChIKey, or null. */
  readonly duplicate_of: string | null;
  /** The class gate's verdict (`COMPOUND_CLASS_RULE`); null when not parsed. */
  readonly compound_class: CompoundClass | null;
  readonly compound_class_reason: string | null;
}

export interface MolecularLogicSummary {
  readonly compounds: number;
  readonly parsed: number;
  readonly unparseable: number;
  readonly unparseable_candidates: readonly string[];
  /** Rows RDKit never judged (size guard, fault, time budget): neither parsed nor unparseable. */
  readonly unassessed: number;
  readonly unassessed_candidates: readonly string[];
  /** parsed / (compounds − unassessed): the share of the judged structures that parse. */
  readonly parse_rate: number;
  readonly multi_fragment: number;
  readonly charged_parents: number;
  readonly with_unspecified_stereo: number;
  readonly parent_ambiguous: readonly string[];
  readonly parent_ambiguous_count: number;
  readonly no_organic_parent: readonly string[];
  readonly no_organic_parent_count: number;
  /** Parents whose charges were neutralised. */
  readonly neutralised_parents: number;
  readonly permanent_charge: readonly string[];
  readonly permanent_charge_count: number;
  readonly duplicates: readonly { candidate_id: string; duplicate_of: string }[];
  readonly duplicate_count: number;
  /** Parsed compounds per compound_class. */
  readonly compound_classes: Readonly<Record<string, number>>;
  readonly compound_class_rule: string;
  /**
   * The candidate lists above hold their first `list_limit` entries in portfolio order (counts
   * beside them); each compound's finding carries its own flag and `duplicate_of`.
   */
  readonly list_limit: number;
  readonly standardization: string;
  readonly method: MethodCard;
}

const ID = "molecular_logic";

const METHOD: MethodCard = {
  what:
    "Parses each SMILES with RDKit (RDKit's own reason kept when it refuses one), chooses the parent " +
    "by the rule in `standardization` (salts stripped, then acids and bases neutralised as the ChEMBL " +
    "pipeline's charge-neutral parent; a permanent cation is kept and flagged permanent_charge), and " +
    "reports canonical SMILES, InChI/InChIKey, charge, stereo and duplicates by parent InChIKey, so a " +
    "salt and its free form are one compound. Before any of that, a compound-class gate " +
    "(compound_class_rule) recognises inorganic, organometallic, metal-complex, non-drug-like-element, " +
    "polymer-or-fragment (dummy atoms) and radical inputs: they are not salt-stripped (no parent is " +
    "invented) and every model says out_of_domain for them.",
  citations: [
    "RDKit 2026.09 (WebAssembly MinimalLib), https://www.rdkit.org",
    "RDKit Data/Salts.txt (Landrum, definitions from Zoller, 2006)",
    "Stahl & Wermuth, Handbook of Pharmaceutical Salts, Wiley-VCH 2002",
    "Bruns & Watson, J. Med. Chem. 2012, 55, 9763 (Lilly MedChem Rules: the drug-like element set)",
    "Bento et al., J. Cheminform. 2020, 12, 51 (ChEMBL structure pipeline: charge-neutral parent)",
    "RDKit MolStandardize Uncharger (Code/GraphMol/MolStandardize/Charge.cpp)",
    "IUPAC InChI, Heller et al., J. Cheminform. 2015, 7, 23",
  ],
  data: ["rdkit-salts.txt", "counterions-and-solvents.txt"],
  validation:
    "Salt fragments found by the same definitions as native RDKit's SaltRemover on every multi-fragment " +
    "molecule of NCI first_5K.smi (test: parent/choose-parent.validation.test.ts); counterion fixtures NCI-3802, " +
    "NCI-3423, NCI-2702 and a tetraphenylborate salt. Parents identical to native RDKit 2022.09's " +
    "LargestFragmentChooser + Uncharger on " +
    `${NEUTRAL_PARENT_VALIDATION.chembl.identical}/${NEUTRAL_PARENT_VALIDATION.chembl.compounds} ChEMBL ` +
    "compounds of the Lipophilicity set (none of them charged) and on " +
    `${NEUTRAL_PARENT_VALIDATION.tox21.identical}/${NEUTRAL_PARENT_VALIDATION.tox21.compounds} Tox21 compounds ` +
    `(${NEUTRAL_PARENT_VALIDATION.tox21.neutralised} parents neutralised; ${NEUTRAL_PARENT_VALIDATION.tox21.kept_whole} ` +
    "inorganic, organometallic or metal-complex inputs kept whole by the class gate are not compared); salt/free pairs (diclofenac " +
    "sodium, propranolol hydrochloride, losartan potassium, …) give one parent and one duplicate " +
    "(test: parent/neutralise-parent.validation.test.ts).",
  limits:
    "No tautomer canonicalisation (RDKit WebAssembly has no standardizer; the neutralisation is a port " +
    "of RDKit's Uncharger over RDKit's own SMARTS and molblock). Where the Tox21 parents differ from " +
    "native's, it is the fragment choice (RDKit's largest fragment counts hydrogens and does not strip " +
    "salts; an inorganic input is kept whole here) or, once, which of two sulfonates stays charged to " +
    "balance a permanent cation (RDKit picks by canonical rank, this port by atom order). Counterions " +
    "absent from both lists are only removed when smaller than the parent.",
};

/**
 * Parse, sanitize and standardize each SMILES (RDKit), report canonical SMILES, InChIKey,
 * fragments, charge and stereo, and flag duplicate structures by parent InChIKey.
 */
export const molecularLogic = defineModule<
  MolecularLogicFinding,
  MolecularLogicFinding,
  MolecularLogicSummary
>({
  id: ID,
  version: "1.0.0",
  description: "Structure parsing, sanitization, parent choice (salts stripped), identity and duplicates",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  // Its own not-parsed shape (status unparseable or unassessed, with the error), not the framework's.
  notAssessed: (_base, compound) => notParsedFinding(compound),
  assess: assessMolecularLogic,
  createRun() {
    // One entry per distinct parent: the duplicate check needs every key seen (about 100 bytes each).
    const firstByKey = new Map<string, string>();
    const unparseable = new FirstEntries<string>();
    const unassessed = new FirstEntries<string>();
    const duplicates = new FirstEntries<{ candidate_id: string; duplicate_of: string }>();
    const ambiguous = new FirstEntries<string>();
    const inorganic = new FirstEntries<string>();
    const permanent = new FirstEntries<string>();
    let neutralised = 0;
    const classes: Record<string, number> = {};
    let compounds = 0;
    let multiFragment = 0;
    let charged = 0;
    let unspecified = 0;
    // The run state: counts and duplicates by parent InChIKey, in portfolio order.
    const notAssessed = (finding: MolecularLogicFinding): MolecularLogicFinding => {
      compounds++;
      (finding.status === "unparseable" ? unparseable : unassessed).add(finding.candidate_id);
      return finding;
    };
    const merge = (finding: MolecularLogicFinding): MolecularLogicFinding => {
      compounds++;
      const key = finding.parent_inchikey ?? (finding.parent_smiles as string);
      const first = firstByKey.get(key);
      if (first === undefined) firstByKey.set(key, finding.candidate_id);
      else duplicates.add({ candidate_id: finding.candidate_id, duplicate_of: first });
      if ((finding.fragment_count ?? 0) > 1) multiFragment++;
      if (finding.parent_ambiguous) ambiguous.add(finding.candidate_id);
      if (finding.no_organic_parent) inorganic.add(finding.candidate_id);
      if (finding.permanent_charge) permanent.add(finding.candidate_id);
      if (finding.parent_neutralised) neutralised++;
      if (finding.compound_class !== null)
        classes[finding.compound_class] = (classes[finding.compound_class] ?? 0) + 1;
      if (finding.parent_net_charge !== 0) charged++;
      if ((finding.unspecified_stereo_centers ?? 0) > 0) unspecified++;
      return { ...finding, duplicate_of: first ?? null };
    };
    return {
      merge,
      notAssessed,
      finish(): MolecularLogicSummary {
        const parsed = compounds - unparseable.count - unassessed.count;
        return {
          compounds,
          parsed,
          unparseable: unparseable.count,
          unparseable_candidates: unparseable.items,
          unassessed: unassessed.count,
          unassessed_candidates: unassessed.items,
          parse_rate: ratio(parsed, compounds - unassessed.count),
          multi_fragment: multiFragment,
          charged_parents: charged,
          with_unspecified_stereo: unspecified,
          parent_ambiguous: ambiguous.items,
          parent_ambiguous_count: ambiguous.count,
          no_organic_parent: inorganic.items,
          no_organic_parent_count: inorganic.count,
          neutralised_parents: neutralised,
          permanent_charge: permanent.items,
          permanent_charge_count: permanent.count,
          duplicates: duplicates.items,
          duplicate_count: duplicates.count,
          compound_classes: classes,
          compound_class_rule: COMPOUND_CLASS_RULE,
          list_limit: SUMMARY_LIST_LIMIT,
          standardization: `${PARENT_RULE} ${NEUTRALISATION_RULE}`,
          method: METHOD,
        };
      },
    };
  },
});

function rowFields(compound: PreparedCompound) {
  return {
    candidate_id: compound.row.candidateId,
    evidence_id: evidenceId(ID, compound.row.index),
    line: compound.row.line,
    input_smiles: compound.row.smiles,
  };
}

function notParsedFinding(compound: Extract<PreparedCompound, { ok: false }>): MolecularLogicFinding {
  return {
    ...rowFields(compound),
    status: compound.unassessed === true ? "unassessed" : "unparseable",
    error: compound.error,
    canonical_smiles: null,
    inchikey: null,
    parent_smiles: null,
    parent_inchikey: null,
    fragment_count: null,
    salt_or_mixture_stripped: false,
    stripped_fragments: [],
    parent_ambiguous: false,
    no_organic_parent: false,
    parent_neutralised: false,
    permanent_charge: false,
    net_charge: null,
    parent_net_charge: null,
    stereo_centers: null,
    unspecified_stereo_centers: null,
    duplicate_of: null,
    compound_class: null,
    compound_class_reason: null,
  };
}

/** The per-compound part (no run state): `duplicate_of` is left null for `merge` to set. */
function assessMolecularLogic(compound: ParsedCompound): MolecularLogicFinding {
  const { chem } = compound;
  return {
    ...rowFields(compound),
    status: "parsed",
    error: null,
    canonical_smiles: chem.canonical_smiles,
    inchikey: chem.inchikey,
    parent_smiles: chem.parent_smiles,
    parent_inchikey: chem.parent_inchikey,
    fragment_count: chem.fragment_count,
    salt_or_mixture_stripped: chem.stripped_fragments.length > 0,
    stripped_fragments: chem.stripped_fragments,
    parent_ambiguous: chem.parent_ambiguous,
    no_organic_parent: chem.no_organic_parent,
    parent_neutralised: chem.parent_neutralised,
    permanent_charge: chem.permanent_charge,
    net_charge: chem.net_charge,
    parent_net_charge: chem.parent_net_charge,
    stereo_centers: chem.descriptors.atom_stereo_centers,
    unspecified_stereo_centers: chem.descriptors.unspecified_atom_stereo_centers,
    duplicate_of: null,
    compound_class: chem.compound_class,
    compound_class_reason: chem.compound_class_reason,
  };
}
