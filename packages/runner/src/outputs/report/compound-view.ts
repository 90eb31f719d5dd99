// The one place that knows which module finding carries which quantity (the per-compound keys
// agreed with the science package, issue 12). Everything else in the report reads a CompoundView,
// so a module added or renamed changes this file only. A quantity whose module did not run is
// `null` with the module's reason — never a made-up value.

import {
  type AdmetFinding,
  type CypFinding,
  type DrugLikenessFinding,
  RADAR_RANGES as SWISSADME_RADAR_RANGES,
} from "@svc/science/admet";
import type { ClinicalPrecedentFinding } from "@svc/science/clinical";
import type { CnsPenetrationFinding } from "@svc/science/cns";
import { DEFAULT_PROFILE, type TargetProductProfile } from "@svc/science/decision";
import type { ManufacturabilityFinding } from "@svc/science/manufacturability";
import type { MetaboliteFinding } from "@svc/science/metabolism";
import { CLASS_DOMAIN_RULE, type MolecularLogicFinding } from "@svc/science/parent";
import type { ReadinessFinding } from "@svc/science/readiness";
import type { SolubilityFinding } from "@svc/science/solubility";
import type { SynthesisFinding } from "@svc/science/synthesis";
import type { ToxicityProfileFinding } from "@svc/science/toxicity";
import type { ClassifierCall, UncertaintyFinding } from "@svc/science/uncertainty";
import type { CompoundDocking } from "./docking-results.ts";

/** What the report needs of a prepared compound (structurally the runner's PreparedCompound). */
export interface ReportCompoundInput {
  readonly row: {
    readonly index: number;
    readonly candidateId: string;
    readonly name: string | null;
    readonly smiles: string;
    readonly metadata: Readonly<Record<string, string>>;
  };
  readonly ok: boolean;
  readonly error?: string;
  readonly chem?: {
    readonly parent_smiles: string;
    readonly parent_inchikey: string | null;
    readonly inchikey: string | null;
    readonly fragment_count: number;
  };
}

export interface RuleOutcome {
  readonly pass: boolean;
  readonly violations: readonly string[];
}

/** A number with where it came from, or why there is none. */
export type Quantity =
  | { readonly value: number; readonly source: string }
  | { readonly value: null; readonly reason: string };

export const RULE_NAMES = ["lipinski", "ghose", "veber", "egan", "muegge", "lead_likeness"] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export const ALERT_FAMILIES = ["pains", "brenk", "nibr"] as const;
export type AlertFamily = (typeof ALERT_FAMILIES)[number];

export const RADAR_AXES = ["lipo", "size", "polar", "insolu", "insatu", "flex"] as const;
export type RadarAxis = (typeof RADAR_AXES)[number];

export interface RadarValue {
  readonly value: number | null;
  readonly low: number;
  readonly high: number;
  readonly in_range: boolean | null;
  readonly source: string;
}

/**
 * The classifier liability models the decision reads (issue 36 item 1): TDC-trained hERG, DILI, Ames
 * (toxicity_profile), P-gp (admet_predictions) and the five CYP isoforms (cyp_assessment).
 */
export const LIABILITY_MODELS = [
  "herg",
  "dili",
  "ames",
  "pgp",
  "cyp1a2",
  "cyp2c9",
  "cyp2c19",
  "cyp2d6",
  "cyp3a4",
] as const;
export type LiabilityModel = (typeof LIABILITY_MODELS)[number];

/** Each liability model's call as a chemist reads it: the card's Model calls panel and report-summary.csv. */
export const MODEL_CALL_LABELS: Readonly<Record<LiabilityModel, string>> = {
  herg: "hERG blocker",
  dili: "DILI concern",
  ames: "Ames mutagen",
  pgp: "P-gp inhibitor",
  cyp1a2: "CYP1A2 inhibitor",
  cyp2c9: "CYP2C9 inhibitor",
  cyp2c19: "CYP2C19 inhibitor",
  cyp2d6: "CYP2D6 inhibitor",
  cyp3a4: "CYP3A4 inhibitor",
};

/** A call in the card's and the summary CSV's words (sortable as text: no < uncertain < unknown < yes). */
export const CALL_WORDS = { positive: "yes", negative: "no", uncertain: "uncertain" } as const;

/**
 * One classifier's output for a compound: its probability and call in domain; out of domain or not
 * run it has no probability or call and says why (never read as a negative). Out of the model's
 * similarity domain the estimate the module kept for audit (`raw_out_of_domain`) is carried as
 * `estimate`, for the decision to read at what it is worth; outside the organic classes it is null
 * (the model does not apply at all).
 */
export type ModelCallView =
  | {
      readonly status: "in_domain";
      readonly probability: number;
      readonly call: ClassifierCall;
      readonly source: string;
    }
  | {
      readonly status: "out_of_domain";
      readonly reason: string;
      readonly source: string;
      readonly estimate: number | null;
    }
  | { readonly status: "not_run"; readonly reason: string; readonly source: string };

export interface ModuleFindingView {
  readonly module_id: string;
  readonly evidence_id: string;
  /** The finding as written to raw/<module>_raw.json, for the card's evidence viewer. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * The finding science writes for each module the report reads by name (issue 41 item 5): read through
 * `findingOf` (the card) or `readCompoundView`, a field science renames or drops fails the typecheck
 * instead of leaving a value that never shows.
 */
export interface CardFindings {
  readonly molecular_logic: MolecularLogicFinding;
  readonly admet_predictions: AdmetFinding;
  readonly kinase_drug_likeness: DrugLikenessFinding;
  readonly synthesis_audit: SynthesisFinding;
  readonly wetlab_priority_and_readiness_determiner: ReadinessFinding;
  readonly cyp_assessment: CypFinding;
  readonly solubility_assessment: SolubilityFinding;
  readonly toxicity_profile: ToxicityProfileFinding;
  readonly clinical_precedent_prior: ClinicalPrecedentFinding;
  readonly cns_penetration: CnsPenetrationFinding;
  readonly manufacturability_audit: ManufacturabilityFinding;
  readonly metabolite_prediction: MetaboliteFinding;
  readonly uncertainty_quantification: UncertaintyFinding;
}

/**
 * A module's finding for the compound as science typed it, or null when the module has none. Each
 * field may be absent: the record is read back from JSON (raw/<module>_raw.json, or a run of an
 * older build), so a reader checks what it uses.
 */
export function findingOf<Id extends keyof CardFindings>(
  view: Pick<CompoundView, "findings">,
  id: Id,
): Partial<CardFindings[Id]> | null {
  const raw = view.findings.find((finding) => finding.module_id === id)?.raw;
  return raw === undefined ? null : (raw as Partial<CardFindings[Id]>);
}

export interface CompoundView {
  readonly index: number;
  readonly candidate_id: string;
  readonly name: string | null;
  readonly input_smiles: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly parsed: boolean;
  /** RDKit's own message when the molecular_logic finding carries one. */
  readonly parse_error: string | null;
  readonly parent_smiles: string | null;
  readonly parent_inchikey: string | null;
  readonly salt_stripped: boolean;
  readonly fragment_count: number;
  readonly duplicate_of: string | null;
  readonly props: {
    readonly mw: Quantity;
    readonly wlogp: Quantity;
    readonly tpsa: Quantity;
    /** Ertl's TPSA with polar S and P, the one BOILED-Egg was fitted on (Daina & Zoete 2016; issue 24 item 4). */
    readonly tpsa_sp: Quantity;
    readonly hbd: Quantity;
    readonly hba: Quantity;
    readonly rotatable_bonds: Quantity;
    readonly aromatic_rings: Quantity;
    readonly fsp3: Quantity;
    readonly qed: Quantity;
    readonly sa_score: Quantity;
    readonly log_s: Quantity;
    /** log D at pH 7.4 from admet_predictions' Lipophilicity model (issue 11). */
    readonly logd74: Quantity;
  };
  readonly rules: Readonly<Record<RuleName, RuleOutcome | { readonly reason: string }>>;
  readonly boiled_egg: {
    readonly gi_absorption: string;
    readonly bbb_permeant: boolean;
    readonly region: string;
    /** Why the ellipses were overruled (a permanent cation, issue 36 item 3), or null. */
    readonly veto: string | null;
  } | null;
  readonly radar: Readonly<Record<RadarAxis, RadarValue>>;
  /** Matched alert names per family; null when the family's module did not run. */
  readonly alerts: Readonly<Record<AlertFamily, readonly string[] | null>>;
  readonly alert_atoms: Readonly<Record<string, readonly number[]>> | null;
  /**
   * The readiness module's score (null when it gives none, e.g. outside the organic classes) and its
   * coverage: the share of its signals' weight present in domain (issue 24 item 1: an out-of-domain
   * or missing estimate lowers it below 1). Null when the module did not run.
   */
  readonly readiness: {
    readonly score: number | null;
    readonly coverage: number | null;
    readonly rationale: string | null;
  } | null;
  /**
   * molecular_logic's compound_class (issue 24 item 2); null when it did not run or the row did not
   * parse. Only organic and organic_salt are inside the models' domain.
   */
  readonly compound_class: string | null;
  /** molecular_logic's `permanent_charge` (quaternary N, etc.): poor passive permeability. */
  readonly permanent_charge: boolean;
  /** Applicability domain of the model-based values: null when the model did not run. */
  readonly domain: {
    readonly log_s: boolean | null;
    readonly logd74: boolean | null;
  };
  /** Predicted liabilities with their domain (toxicity_profile's Tox21 model, clinical_precedent_prior). */
  readonly liabilities: {
    readonly tox21: {
      readonly probabilities: Readonly<Record<string, number>>;
      readonly in_domain: boolean;
    } | null;
    /** probability is null out of the model's domain (issue 24 item 1). */
    readonly ct_tox: { readonly probability: number | null; readonly in_domain: boolean } | null;
    /** hERG, DILI, Ames, P-gp and the CYP isoforms, each with its call (issue 36 item 1). */
    readonly models: Readonly<Record<LiabilityModel, ModelCallView>>;
  };
  /**
   * The customer's measured potency (assays_csv): the best pActivity of the compound's rows, its
   * qualifier kept in pActivity terms (assays-csv.ts: "<" for a censored "less potent than", IC50 >
   * X); null when none is staged for it (issue 37 items 4, 6).
   */
  readonly potency: { readonly p_activity: number; readonly relation: string; readonly rows: number } | null;
  /** The target product profile the compound is ordered against (sources.json `profile`, issue 36 item 2). */
  readonly profile: TargetProductProfile;
  readonly findings: readonly ModuleFindingView[];
  /** molecular_docking per staged structure (the structure stage's file); empty when it did not run. */
  readonly docking: readonly CompoundDocking[];
}

/** Why a module has no finding: its plan outcome ("not available in this build", missing input…). */
export type ModuleReasons = ReadonlyMap<string, string>;

type Finding = Readonly<Record<string, unknown>>;

/** admet_predictions' numeric fields the report reads as quantities. */
type AdmetQuantity = "mw" | "wlogp" | "tpsa" | "tpsa_sp" | "hbd" | "hba" | "rotatable_bonds" | "fsp3";
/** kinase_drug_likeness's descriptors, each the same quantity from RDKit. */
type DrugLikenessQuantity = keyof NonNullable<DrugLikenessFinding["descriptors"]>;

const ADMET = "admet_predictions";
const DRUG_LIKENESS = "kinase_drug_likeness";
const SOLUBILITY = "solubility_assessment";
const TOXICITY = "toxicity_profile";
const SYNTHESIS = "synthesis_audit";
const LOGIC = "molecular_logic";
// The readiness module gives `readiness_score` (higher = readier) and `rationale` (text); when it
// did not run, the report orders transparently.
const READINESS = "wetlab_priority_and_readiness_determiner";
const PRECEDENT = "clinical_precedent_prior";
const CYP = "cyp_assessment";

/** Each radar axis's label on the plot. */
const RADAR_LABELS: Readonly<Record<RadarAxis, string>> = {
  lipo: "LIPO (WLOGP)",
  size: "SIZE (MW)",
  polar: "POLAR (TPSA)",
  insolu: "INSOLU (log S, adopted solubility model)",
  insatu: "INSATU (Fsp3)",
  flex: "FLEX (rotatable bonds)",
};

/**
 * SwissADME radar ranges (Daina, Michielin & Zoete 2017, Sci Rep 7:42717, Figure 3) as science's
 * admet_predictions applies them (issue 41 item 5: the report does not restate them), with the labels.
 */
export const RADAR_RANGES: Readonly<Record<RadarAxis, { low: number; high: number; label: string }>> =
  Object.fromEntries(
    RADAR_AXES.map((axis) => {
      const [low, high] = SWISSADME_RADAR_RANGES[axis];
      return [axis, { low, high, label: RADAR_LABELS[axis] }];
    }),
  ) as Record<RadarAxis, { low: number; high: number; label: string }>;

/** Reads the findings of one compound into the report's view. */
/** What the run knows of a compound besides its findings. */
export interface CompoundContext {
  readonly docking?: readonly CompoundDocking[];
  readonly potency?: CompoundView["potency"];
  readonly profile?: TargetProductProfile;
}

export function readCompoundView(
  compound: ReportCompoundInput,
  findings: ReadonlyMap<string, unknown>,
  reasons: ModuleReasons,
  context: CompoundContext = {},
): CompoundView {
  const docking = context.docking ?? [];
  // Each module's finding as science types it; the values are still checked where read (num, str):
  // the record comes back from JSON.
  const get = <Id extends keyof CardFindings>(id: Id): Partial<CardFindings[Id]> | null => {
    const finding = findings.get(id);
    return finding !== null && typeof finding === "object" ? (finding as Partial<CardFindings[Id]>) : null;
  };
  const admet = get(ADMET);
  const dl = get(DRUG_LIKENESS);
  const dlDescriptors = dl?.descriptors ?? null;
  const solubility = get(SOLUBILITY);
  const toxicity = get(TOXICITY);
  const synthesis = get(SYNTHESIS);
  const logic = get(LOGIC);
  const readiness = get(READINESS);
  const precedent = get(PRECEDENT);
  const cyp = get(CYP);
  // No isoforms (a compound not assessed): each CYP call reads as not run with the module's reason.
  const isoforms = cyp?.isoforms ?? null;
  const why = (id: string) => reasons.get(id) ?? "module did not run";

  // admet_predictions first (its WLOGP/TPSA are the BOILED-Egg's own), then the same quantity
  // from kinase_drug_likeness (RDKit's CrippenClogP is Wildman–Crippen WLOGP; RDKit TPSA).
  // admet_predictions writes no aromatic ring count (`admetKey` null): kinase_drug_likeness's is read.
  const pick = (
    admetKey: AdmetQuantity | null,
    dlKey: DrugLikenessQuantity | null,
    label: string,
  ): Quantity => {
    const a = admetKey === null ? null : num(admet?.[admetKey]);
    if (a !== null) return { value: a, source: `${ADMET}.${admetKey}` };
    const d = dlKey === null ? null : num(dlDescriptors?.[dlKey]);
    if (d !== null) return { value: d, source: `${DRUG_LIKENESS}.descriptors.${dlKey}` };
    if (admet === null && dl === null) return { value: null, reason: `${label}: ${why(ADMET)}` };
    return { value: null, reason: `${label}: not computable for this compound` };
  };
  const single = (ran: boolean, given: unknown, id: string, key: string, label: string): Quantity => {
    const value = num(given);
    if (value !== null) return { value, source: `${id}.${key}` };
    return { value: null, reason: ran ? `${label}: not computable` : `${label}: ${why(id)}` };
  };
  // admet_predictions.logd74 is an object ({ value, in_domain, … }); its value is the quantity.
  const logd74Of = (finding: Partial<AdmetFinding> | null): Quantity => {
    const value = num(finding?.logd74?.value);
    if (value !== null) return { value, source: `${ADMET}.logd74.value` };
    return { value: null, reason: finding === null ? `log D7.4: ${why(ADMET)}` : "log D7.4: not computable" };
  };
  const props = {
    mw: pick("mw", "mw", "MW"),
    wlogp: pick("wlogp", "clogp", "WLOGP"),
    tpsa: pick("tpsa", "tpsa", "TPSA"),
    tpsa_sp: pick("tpsa_sp", null, "TPSA (N, O, S, P)"),
    hbd: pick("hbd", "hbd", "HBD"),
    hba: pick("hba", "hba", "HBA"),
    rotatable_bonds: pick("rotatable_bonds", "rotatable_bonds", "rotatable bonds"),
    aromatic_rings: pick(null, "aromatic_rings", "aromatic rings"),
    fsp3: pick("fsp3", "fsp3", "Fsp3"),
    qed: single(admet !== null, admet?.qed, ADMET, "qed", "QED"),
    sa_score: single(synthesis !== null, synthesis?.sa_score, SYNTHESIS, "sa_score", "SA score"),
    log_s: single(
      solubility !== null,
      solubility?.log_s,
      SOLUBILITY,
      "log_s",
      `log S (${solubility?.model ?? "solubility model"})`,
    ),
    logd74: logd74Of(admet),
  };
  // The report's rule list is wider than either module's (lead-likeness from admet only): read by name.
  const admetRules = record(admet?.rules);
  const dlRules = record(dl?.rules);
  const rules = Object.fromEntries(
    RULE_NAMES.map((rule) => {
      const found = ruleOf(admetRules?.[rule]) ?? ruleOf(dlRules?.[rule]);
      const reason = admet === null ? why(ADMET) : "not evaluated for this compound";
      return [rule, found ?? { reason }];
    }),
  ) as Record<RuleName, RuleOutcome | { reason: string }>;
  const egg = admet?.boiled_egg ?? null;
  const alerts = {
    pains: toxicity === null ? null : strings(toxicity.pains),
    brenk: toxicity === null ? null : strings(toxicity.brenk),
    nibr:
      toxicity === null
        ? null
        : (Array.isArray(toxicity.nibr) ? toxicity.nibr : []).map((hit) => {
            const entry = record(hit);
            return entry?.severity === undefined
              ? String(entry?.name ?? hit)
              : `${String(entry.name)} (${String(entry.severity)})`;
          }),
  };
  const ok = compound.ok && compound.chem !== undefined;
  const readinessScore = num(readiness?.readiness_score);
  const readinessCoverage = num(readiness?.coverage);
  return {
    index: compound.row.index,
    candidate_id: compound.row.candidateId,
    name: compound.row.name,
    input_smiles: compound.row.smiles,
    metadata: compound.row.metadata,
    parsed: ok,
    parse_error: ok ? null : (str(logic?.error) ?? compound.error ?? "SMILES does not parse"),
    parent_smiles: compound.chem?.parent_smiles ?? null,
    parent_inchikey: compound.chem?.parent_inchikey ?? null,
    salt_stripped: (compound.chem?.fragment_count ?? 1) > 1,
    fragment_count: compound.chem?.fragment_count ?? 0,
    duplicate_of: str(logic?.duplicate_of),
    props,
    rules,
    boiled_egg:
      egg === null
        ? null
        : {
            gi_absorption: egg.gi_absorption,
            bbb_permeant: egg.bbb_permeant === true,
            region: egg.region,
            veto: str(egg.veto),
          },
    radar: readRadar(record(admet?.radar), props),
    alerts,
    alert_atoms: readAlertAtoms(toxicity?.alert_atoms),
    readiness:
      readiness === null || (readinessScore === null && readinessCoverage === null)
        ? null
        : { score: readinessScore, coverage: readinessCoverage, rationale: str(readiness?.rationale) },
    compound_class: str(logic?.compound_class),
    permanent_charge: logic?.permanent_charge === true,
    domain: {
      log_s: typeof solubility?.in_domain === "boolean" ? solubility.in_domain : null,
      logd74: domainOf(admet?.logd74?.in_domain),
    },
    liabilities: {
      tox21: readTox21(record(toxicity?.tox21_fingerprint_model)),
      ct_tox:
        precedent?.ct_tox_in_domain === false
          ? { probability: null, in_domain: false }
          : num(precedent?.ct_tox_probability) === null
            ? null
            : {
                probability: num(precedent?.ct_tox_probability) as number,
                in_domain: precedent?.ct_tox_in_domain === true,
              },
      models: {
        herg: readModelCall(toxicity !== null, toxicity?.herg, `${TOXICITY}.herg`, why(TOXICITY)),
        dili: readModelCall(toxicity !== null, toxicity?.dili, `${TOXICITY}.dili`, why(TOXICITY)),
        ames: readModelCall(toxicity !== null, toxicity?.ames, `${TOXICITY}.ames`, why(TOXICITY)),
        pgp: readModelCall(admet !== null, admet?.pgp, `${ADMET}.pgp`, why(ADMET)),
        cyp1a2: readModelCall(isoforms !== null, isoforms?.CYP1A2, `${CYP}.isoforms.CYP1A2`, why(CYP)),
        cyp2c9: readModelCall(isoforms !== null, isoforms?.CYP2C9, `${CYP}.isoforms.CYP2C9`, why(CYP)),
        cyp2c19: readModelCall(isoforms !== null, isoforms?.CYP2C19, `${CYP}.isoforms.CYP2C19`, why(CYP)),
        cyp2d6: readModelCall(isoforms !== null, isoforms?.CYP2D6, `${CYP}.isoforms.CYP2D6`, why(CYP)),
        cyp3a4: readModelCall(isoforms !== null, isoforms?.CYP3A4, `${CYP}.isoforms.CYP3A4`, why(CYP)),
      },
    },
    potency: context.potency ?? null,
    profile: context.profile ?? DEFAULT_PROFILE,
    findings: [...findings.entries()].flatMap(([module_id, finding]) => {
      const raw = record(finding);
      return raw === null ? [] : [{ module_id, evidence_id: String(raw.evidence_id ?? ""), raw }];
    }),
    docking,
  };
}

/** The radar from admet_predictions, else the same six axes from the descriptors that exist. */
function readRadar(radar: Finding | null, props: CompoundView["props"]): Record<RadarAxis, RadarValue> {
  const fallback: Record<RadarAxis, Quantity> = {
    lipo: props.wlogp,
    size: props.mw,
    polar: props.tpsa,
    insolu: props.log_s,
    insatu: props.fsp3,
    flex: props.rotatable_bonds,
  };
  return Object.fromEntries(
    RADAR_AXES.map((axis) => {
      const given = record(radar?.[axis]);
      const range = RADAR_RANGES[axis];
      const value = num(given?.value);
      if (given !== null && value !== null) {
        return [
          axis,
          {
            value,
            low: num(given.low) ?? range.low,
            high: num(given.high) ?? range.high,
            in_range: given.in_range === true,
            source: `${ADMET}.radar.${axis}`,
          },
        ];
      }
      const q = fallback[axis];
      return [
        axis,
        q.value === null
          ? { value: null, low: range.low, high: range.high, in_range: null, source: q.reason }
          : {
              value: q.value,
              low: range.low,
              high: range.high,
              in_range: q.value >= range.low && q.value <= range.high,
              source: q.source,
            },
      ];
    }),
  ) as Record<RadarAxis, RadarValue>;
}

const CALLS: ReadonlySet<string> = new Set(["positive", "negative", "uncertain"]);

/**
 * A gated TDC classifier output (science's tdc-compound.ts) as the report reads it: `ran` says whether
 * the finding that holds it exists, `source` names the output, `why` is the module's reason when not.
 */
function readModelCall(ran: boolean, given: unknown, source: string, why: string): ModelCallView {
  if (!ran) return { status: "not_run", reason: why, source };
  const output = record(given);
  if (output === null)
    return {
      status: "not_run",
      reason: "no output for this compound (model not adopted or not assessed)",
      source,
    };
  if (output.status === "out_of_domain" || output.in_domain !== true)
    return {
      status: "out_of_domain",
      reason: (str(output.domain_reason) ?? "out of the model's applicability domain").replace(
        /^out_of_domain: /,
        "",
      ),
      source,
      estimate: similarityOnlyEstimate(output),
    };
  const probability = num(output.probability);
  const call =
    typeof output.call === "string" && CALLS.has(output.call) ? (output.call as ClassifierCall) : null;
  if (probability === null || call === null)
    return { status: "not_run", reason: "no probability or call in the output", source };
  return { status: "in_domain", probability, call, source };
}

/** The kept estimate of an output gated by its model's similarity floor alone; null when the compound's class gated it. */
function similarityOnlyEstimate(output: Finding): number | null {
  const raw = record(output.raw_out_of_domain);
  if (output.domain_rule === CLASS_DOMAIN_RULE || raw?.in_domain !== false) return null;
  return num(raw.probability);
}

function domainOf(value: unknown): boolean | null {
  return typeof value === "boolean" ? value : null;
}

function readTox21(model: Finding | null): CompoundView["liabilities"]["tox21"] {
  const probabilities = record(model?.probabilities);
  if (model === null || probabilities === null) return null;
  const out: Record<string, number> = {};
  for (const [assay, p] of Object.entries(probabilities)) {
    const value = num(p);
    if (value !== null) out[assay] = value;
  }
  return { probabilities: out, in_domain: model.in_domain === true };
}

function readAlertAtoms(value: unknown): Record<string, number[]> | null {
  const atoms = record(value);
  if (atoms === null) return null;
  const out: Record<string, number[]> = {};
  for (const [name, list] of Object.entries(atoms))
    if (Array.isArray(list)) out[name] = list.filter((i): i is number => Number.isInteger(i) && i >= 0);
  return out;
}

function ruleOf(value: unknown): RuleOutcome | null {
  const rule = record(value);
  if (rule === null || typeof rule.pass !== "boolean") return null;
  return { pass: rule.pass, violations: strings(rule.violations) };
}

function record(value: unknown): Finding | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Finding) : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((entry) => String(entry)) : [];
}
