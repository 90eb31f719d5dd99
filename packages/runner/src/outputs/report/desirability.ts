import { computeQed, outOfDomainSkillShare } from "@svc/science/admet";
import { CNS_MPO_COMPONENTS } from "@svc/science/cns";
import type { TargetProductProfile } from "@svc/science/decision";
import { round } from "@svc/science/numeric";
import { SOLUBILITY_CLASS_FLOORS } from "@svc/science/solubility";
import {
  type CompoundView,
  LIABILITY_MODELS,
  type LiabilityModel,
  type ModelCallView,
} from "./compound-view.ts";
import { formatBound } from "./format.ts";

// The report's decision model (issue 27 item 2, rebuilt for issue 36 items 1–2 and issue 37 item 4):
// one multi-parameter desirability score per compound, for the project's target product profile.
// Every part is a published desirability function or a stated liability with a named weight, every
// part is shown on the card, and an input that is missing or outside its model's applicability
// domain never counts as good: a property is scored at the uninformative 0.5 (at most 0.5 out of
// domain), a liability model not run is read at probability 0.5 and one out of its similarity floor
// at its estimate shrunk towards 0.5 by the skill it keeps there, and all lower the confidence.

/** One desirability term of the score: 0 (undesirable) to 1 (desirable). */
export interface DesirabilityTerm {
  readonly id: string;
  readonly label: string;
  readonly weight: number;
  /** The desirability used in the score. */
  readonly d: number;
  /** "present": measured in domain; "out_of_domain": capped at 0.5; "missing": scored 0.5. */
  readonly status: "present" | "out_of_domain" | "missing";
  /** The input in words with its unit, or why there is none. */
  readonly input: string;
  readonly method: string;
}

/** A multiplicative factor for an alert, a permanent charge or a predicted liability. */
export interface Penalty {
  readonly id: string;
  readonly label: string;
  readonly factor: number;
}

/**
 * One liability model as the decision read it: its probability in domain (or 0.5, "unknown", out of
 * domain or not run), its call, and the factor it multiplied the score by.
 */
export interface LiabilityReading {
  readonly id: LiabilityModel | "ct_tox";
  readonly label: string;
  readonly weight: number;
  /** The probability used: the model's in domain, UNINFORMATIVE otherwise. */
  readonly p: number;
  /** positive / negative / uncertain in domain; unknown out of domain or when the model did not run. */
  readonly call: "positive" | "negative" | "uncertain" | "unknown";
  readonly factor: number;
  /** Why unknown, in words (out of domain, not run); null when read in domain. */
  readonly unknown_reason: string | null;
  /**
   * Out of the model's similarity domain: the estimate it kept and the share of its skill it keeps
   * there; `p` is the estimate shrunk towards 0.5 by that share. Null in domain, when not run, and
   * when nothing measured says the estimate is worth anything (outside the organic classes, no test
   * compound below the floor, ClinTox).
   */
  readonly out_of_domain_estimate: { readonly estimate: number; readonly skill_share: number } | null;
}

export interface DesirabilityScore {
  readonly profile: TargetProductProfile;
  /** Weighted geometric mean of the terms, times the penalties: 0 to 1, higher first. */
  readonly score: number;
  /** Share of the terms' weight (and of the liability models) measured in domain: 0 to 1. */
  readonly confidence: number;
  readonly terms: readonly DesirabilityTerm[];
  /** Every factor below 1, liabilities included, in the order the score multiplied them. */
  readonly penalties: readonly Penalty[];
  /** Every liability model read, in domain or not. */
  readonly liabilities: readonly LiabilityReading[];
  /** What lowered the confidence, in words. */
  readonly uncertain: readonly string[];
  /**
   * True only when every liability model ran in domain and was called negative, no alert matched,
   * no Tox21 assay is predicted active and there is no permanent charge: the one case the report
   * may say "no alert or predicted liability".
   */
  readonly clean: boolean;
}

/** Factors are shown and multiplied at 3 decimals, so the page's arithmetic is the score's. */
const FACTOR_DIGITS = 3;

/** The score an unknown or untrusted input gets: neither good nor bad. */
export const UNINFORMATIVE = 0.5;

/** A linear ramp: 1 at or beyond `good`, 0 at or beyond `bad` (either direction). */
export function ramp(value: number, good: number, bad: number): number {
  const t = (value - bad) / (good - bad);
  return Math.min(1, Math.max(0, t));
}

/** A plateau: 1 between `low` and `high`, falling linearly to 0 at `lowZero` and `highZero`. */
export function plateau(value: number, lowZero: number, low: number, high: number, highZero: number): number {
  return value < low ? ramp(value, low, lowZero) : ramp(value, high, highZero);
}

// Penalty factors of alerts and charge, stated in the ordering rule on the page.
export const PENALTIES = {
  /** PAINS (Baell & Holloway, J. Med. Chem. 2010, 53, 2719): assay-interference frequent hitters. */
  pains: 0.5,
  /** NIBR "EXCLUDE" substructures (Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425). */
  nibrExclude: 0.5,
  /** Any other NIBR flag. */
  nibrFlag: 0.85,
  /** Brenk unwanted groups (Brenk et al., ChemMedChem 2008, 3, 435). */
  brenk: 0.8,
  /**
   * A permanent charge (quaternary N and the like), oral profiles only: little passive permeation,
   * so oral bioavailability of a tenth or less (trospium chloride 9.6%, its FDA label; neostigmine
   * 1–2%, Aquilonius & Hartvig, Clin. Pharmacokinet. 1986, 11, 236): a tenth of the desirability.
   */
  permanentCharge: 0.1,
  /** Per Tox21 assay predicted active (p ≥ 0.5, in domain); at most TOX21_FLOOR together. */
  tox21PerAssay: 0.9,
  tox21Floor: 0.5,
} as const;

/**
 * Liability weights w: a model read at probability p multiplies the score by (1 − p)^w. With w = 1
 * that is the model's probability that the compound does NOT have the liability, so the product over
 * hERG, DILI, Ames and ClinTox is the chance that none of them is real (read as independent) — the
 * noisy-OR of Pearl (Probabilistic Reasoning in Intelligent Systems, 1988, §4.3.2). A model not run
 * is read at p = 0.5: unknown is never clean. Out of its similarity floor a model's estimate is read
 * shrunk towards 0.5 by the share of its skill it keeps there (reading()), and its call stays unknown. hERG (QT prolongation,
 * torsades), drug-induced liver injury and Ames mutagenicity are the liabilities behind most drug
 * withdrawals and boxed warnings (Onakpoya, Heneghan & Aronson, BMC Med. 2016, 14, 10: hepatotoxicity
 * and cardiac toxicity the leading causes) and that ICH M7 (mutagenic impurities) and ICH E14/S7B
 * (QT) make gating; ClinTox is clinical-trial toxicity. Each CYP isoform inhibited is a drug–drug
 * interaction risk (FDA 2020 in-vitro DDI guidance), worth less than a safety liability: w 0.3.
 * P-gp counts only for a CNS profile, where efflux at the blood–brain barrier keeps a drug out
 * (Hitchcock & Pennington, J. Med. Chem. 2006, 49, 7559). The weights were set from these reasons
 * before the held-back measurement in docs/science.md ("The order") and not fitted to it.
 */
export const LIABILITY_WEIGHTS: Readonly<Record<LiabilityModel | "ct_tox", number>> = {
  herg: 1,
  dili: 1,
  ames: 1,
  ct_tox: 1,
  pgp: 1,
  cyp1a2: 0.3,
  cyp2c9: 0.3,
  cyp2c19: 0.3,
  cyp2d6: 0.3,
  cyp3a4: 0.3,
};

export const LIABILITY_LABELS: Readonly<Record<LiabilityModel | "ct_tox", string>> = {
  herg: "hERG blocker (in-vitro IC50 label)",
  dili: "DILI concern",
  ames: "Ames mutagen",
  ct_tox: "ClinTox clinical-trial toxicity",
  pgp: "P-gp inhibitor (Broccatelli; a proxy for P-gp interaction at the BBB)",
  cyp1a2: "CYP1A2 inhibitor",
  cyp2c9: "CYP2C9 inhibitor",
  cyp2c19: "CYP2C19 inhibitor",
  cyp2d6: "CYP2D6 inhibitor",
  cyp3a4: "CYP3A4 inhibitor",
};

/** The liability models that count for a profile: P-gp only for CNS. */
export function liabilityModelsOf(profile: TargetProductProfile): readonly LiabilityModel[] {
  return LIABILITY_MODELS.filter((model) => model !== "pgp" || profile === "oral_cns");
}

/** Measured potency (issue 37 item 4): 1 at pActivity ≥ 8 (10 nM), 0 at ≤ 5 (10 µM, a common hit limit). */
export const POTENCY_RAMP = { good: 8, bad: 5, weight: 2 } as const;
/**
 * oral_cns log D7.4: Wager's CNS MPO ClogD function as science's cns_penetration applies it (its
 * CNS_MPO_COMPONENTS: 1 at ≤ 2, 0 at ≥ 4); the report does not restate the breakpoints (issue 41 item 5).
 */
export const CNS_LOGD_RAMP = {
  good: CNS_MPO_COMPONENTS.clogd.oneAtOrBelow,
  bad: CNS_MPO_COMPONENTS.clogd.zeroAtOrAbove,
} as const;
/** Solubility: 1 from SwissADME's "soluble" class up, 0 from "poorly soluble" down (science's class floors: −4, −6). */
export const SOLUBILITY_RAMP = {
  good: SOLUBILITY_CLASS_FLOORS.soluble,
  bad: SOLUBILITY_CLASS_FLOORS.moderately,
} as const;
/** Best Vina score within a receptor: 1 at ≤ −10 kcal/mol, 0 at ≥ −6; weight 0.5 (a docking score ranks weakly). */
export const DOCKING_RAMP = { good: -10, bad: -6, weight: 0.5 } as const;

/**
 * The desirability score of one compound, for its target product profile (`view.profile`):
 * - drug-likeness (weight 2): QED's seven property desirability functions (Bickerton et al., Nat.
 *   Chem. 2012, 4, 90; mean weights) with the ALERTS term at no alert, because alerts are penalised
 *   below, once;
 * - log D7.4 (weight 1): oral_cns: Wager et al.'s CNS MPO ClogD function (ACS Chem. Neurosci. 2010, 1,
 *   435), 1 at ≤ 2, 0 at ≥ 4; oral_peripheral and non_oral: 1 from 1 to 3, 0 at ≤ −1 and ≥ 5 (the
 *   log D 1–3 range of Waring, Expert Opin. Drug Discov. 2010, 5, 235);
 * - solubility (weight 1): log S of the adopted solubility model, 1 at ≥ −4, 0 at ≤ −6;
 * - GI absorption (weight 1; oral profiles): BOILED-Egg (Daina & Zoete 2016), high 1, low 0.25;
 * - brain access (weight 1; oral_cns): BOILED-Egg yolk 1, outside 0.25;
 * - synthetic accessibility (weight 1): SA score (Ertl & Schuffenhauer 2009), 1 at ≤ 4, 0 at ≥ 7;
 * - measured potency (weight 2, when the customer staged assays for the compound) and the best
 *   docking score within each receptor (weight 0.5, when docked);
 * combined as a weighted geometric mean (Derringer & Suich 1980), then multiplied by the alert and
 * charge penalties and by (1 − p)^w for every liability model (LIABILITY_WEIGHTS).
 */
export function desirabilityOf(view: CompoundView): DesirabilityScore {
  const profile = view.profile;
  const p = view.props;
  const terms: DesirabilityTerm[] = [];
  const uncertain: string[] = [];
  const add = (
    id: string,
    label: string,
    weight: number,
    method: string,
    value: number | null,
    inDomain: boolean | null,
    fn: (value: number) => number,
    input: (value: number) => string,
  ) => {
    if (value === null && inDomain === false) {
      // Out of the model's domain the module gives no value (issue 24 item 1): uninformative, not good.
      terms.push({
        id,
        label,
        weight,
        d: UNINFORMATIVE,
        status: "out_of_domain",
        input: "no value: out of the model's domain",
        method,
      });
      uncertain.push(`${label} out of the model's domain`);
      return;
    }
    if (value === null) {
      terms.push({ id, label, weight, d: UNINFORMATIVE, status: "missing", input: "not available", method });
      uncertain.push(`${label} missing`);
      return;
    }
    const d = fn(value);
    if (inDomain === false) {
      terms.push({
        id,
        label,
        weight,
        d: Math.min(d, UNINFORMATIVE),
        status: "out_of_domain",
        input: input(value),
        method,
      });
      uncertain.push(`${label} out of the model's domain`);
      return;
    }
    terms.push({ id, label, weight, d, status: "present", input: input(value), method });
  };
  const qedInputs = [p.mw, p.wlogp, p.hba, p.hbd, p.tpsa, p.rotatable_bonds, p.aromatic_rings].map(
    (q) => q.value,
  );
  const allQed = qedInputs.every((value) => value !== null);
  add(
    "drug_likeness",
    "Drug-likeness (QED properties)",
    2,
    "Bickerton 2012 desirability functions, alerts term excluded",
    allQed ? 0 : null,
    true,
    () => {
      const [MW, ALOGP, HBA, HBD, PSA, ROTB, AROM] = qedInputs as number[];
      return computeQed({
        MW: MW as number,
        ALOGP: ALOGP as number,
        HBA: HBA as number,
        HBD: HBD as number,
        PSA: PSA as number,
        ROTB: ROTB as number,
        AROM: AROM as number,
        ALERTS: 0,
      });
    },
    () => `MW ${fmt(p.mw.value)} g/mol, WLOGP ${fmt(p.wlogp.value)}, TPSA ${fmt(p.tpsa.value)} Å²`,
  );
  if (profile === "oral_cns")
    add(
      "logd74",
      "log D7.4",
      1,
      `Wager 2010 CNS MPO ClogD function: 1 at ≤ ${formatBound(CNS_LOGD_RAMP.good)}, 0 at ≥ ${formatBound(CNS_LOGD_RAMP.bad)}`,
      p.logd74.value,
      view.domain.logd74,
      (v) => ramp(v, CNS_LOGD_RAMP.good, CNS_LOGD_RAMP.bad),
      (v) => `log D7.4 ${fmt(v)}`,
    );
  else
    add(
      "logd74",
      "log D7.4",
      1,
      "Waring 2010 log D range: 1 from 1 to 3, 0 at ≤ −1 and ≥ 5",
      p.logd74.value,
      view.domain.logd74,
      (v) => plateau(v, -1, 1, 3, 5),
      (v) => `log D7.4 ${fmt(v)}`,
    );
  add(
    "solubility",
    "Solubility",
    1,
    `log S (adopted solubility model): 1 at ≥ ${formatBound(SOLUBILITY_RAMP.good)}, 0 at ≤ ${formatBound(SOLUBILITY_RAMP.bad)}`,
    p.log_s.value,
    view.domain.log_s,
    (v) => ramp(v, SOLUBILITY_RAMP.good, SOLUBILITY_RAMP.bad),
    (v) => `log S ${fmt(v)} log(mol/L)`,
  );
  if (profile !== "non_oral") {
    const gi = view.boiled_egg?.gi_absorption ?? null;
    add(
      "gi_absorption",
      "GI absorption",
      1,
      "BOILED-Egg: high 1, low 0.25",
      gi === null ? null : gi === "high" ? 1 : 0.25,
      true,
      (v) => v,
      () => `GI absorption ${gi}`,
    );
  }
  if (profile === "oral_cns") {
    const bbb = view.boiled_egg === null ? null : view.boiled_egg.bbb_permeant;
    add(
      "brain_access",
      "Brain access",
      1,
      "BOILED-Egg yolk: permeant 1, not 0.25",
      bbb === null ? null : bbb ? 1 : 0.25,
      true,
      (v) => v,
      () => `BBB permeant ${bbb ? "yes" : "no"}`,
    );
  }
  add(
    "synthesis",
    "Synthetic accessibility",
    1,
    "SA score: 1 at ≤ 4, 0 at ≥ 7",
    p.sa_score.value,
    true,
    (v) => ramp(v, 4, 7),
    (v) => `SA score ${fmt(v)}`,
  );
  if (view.potency !== null) {
    const { p_activity, relation } = view.potency;
    terms.push({
      id: "potency",
      label: "Measured potency",
      weight: POTENCY_RAMP.weight,
      // A censored value is never scored better than the data guarantee: "> X" (more potent than the
      // bound) at its bound, a lower bound; "< X" (less potent) only says the potency is below X, so
      // at most the bound's desirability and at most the uninformative 0.5.
      d:
        relation === "<" || relation === "≤" || relation === "<="
          ? Math.min(ramp(p_activity, POTENCY_RAMP.good, POTENCY_RAMP.bad), UNINFORMATIVE)
          : ramp(p_activity, POTENCY_RAMP.good, POTENCY_RAMP.bad),
      status: "present",
      input: `pActivity ${relation === "=" ? "" : `${relation} `}${fmt(p_activity)} (assays_csv)`,
      method: `customer's measured potency: 1 at pActivity ≥ ${POTENCY_RAMP.good}, 0 at ≤ ${POTENCY_RAMP.bad}`,
    });
  }
  for (const docked of view.docking) {
    const best = bestDockingScore(docked);
    if (best === null) continue;
    terms.push({
      id: `docking_${docked.structure}`,
      label: `Docking score (pdbs[${docked.structure}])`,
      weight: DOCKING_RAMP.weight,
      d: ramp(best, DOCKING_RAMP.good, DOCKING_RAMP.bad),
      status: "present",
      input: `best Vina score ${fmt(best)} kcal/mol`,
      method: `AutoDock Vina within this receptor: 1 at ≤ ${DOCKING_RAMP.good}, 0 at ≥ ${DOCKING_RAMP.bad} kcal/mol`,
    });
  }

  const penalties: Penalty[] = [];
  const { pains, brenk, nibr } = view.alerts;
  if (pains !== null && pains.length > 0)
    penalties.push({ id: "pains", label: `PAINS: ${pains.join(", ")}`, factor: PENALTIES.pains });
  if (brenk !== null && brenk.length > 0)
    penalties.push({ id: "brenk", label: `Brenk: ${brenk.join(", ")}`, factor: PENALTIES.brenk });
  if (nibr !== null && nibr.length > 0) {
    const exclude = nibr.some((hit) => hit.includes("(EXCLUDE)"));
    penalties.push({
      id: "nibr",
      label: `NIBR: ${nibr.join(", ")}`,
      factor: exclude ? PENALTIES.nibrExclude : PENALTIES.nibrFlag,
    });
  }
  const screened = pains !== null || brenk !== null || nibr !== null;
  if (!screened) uncertain.push("structural alerts not screened");
  if (view.permanent_charge && profile !== "non_oral")
    penalties.push({ id: "permanent_charge", label: "permanent charge", factor: PENALTIES.permanentCharge });
  const tox21 = view.liabilities.tox21;
  let tox21Active = 0;
  if (tox21 === null) uncertain.push("Tox21 model did not run");
  else if (!tox21.in_domain) uncertain.push("Tox21 model out of domain");
  else {
    const active = Object.entries(tox21.probabilities).filter(([, p]) => p >= 0.5);
    tox21Active = active.length;
    if (active.length > 0)
      penalties.push({
        id: "tox21",
        label: `Tox21 predicted active: ${active.map(([assay, p]) => `${assay} ${fmt(p)}`).join(", ")}`,
        factor: Math.max(PENALTIES.tox21Floor, PENALTIES.tox21PerAssay ** active.length),
      });
  }
  const liabilities = readLiabilities(view);
  for (const liability of liabilities) {
    if (liability.call === "unknown")
      uncertain.push(`${liability.label}: unknown (${liability.unknown_reason})`);
    penalties.push({
      id: liability.id,
      label:
        liability.out_of_domain_estimate !== null
          ? `${liability.label} out of domain: estimate ${fmt(liability.out_of_domain_estimate.estimate)}, read at p ${fmt(liability.p)} (the model keeps ${Math.round(liability.out_of_domain_estimate.skill_share * 100)}% of its skill below its floor)`
          : liability.call === "unknown"
            ? `${liability.label} unknown (read at p ${UNINFORMATIVE})`
            : `${liability.label} p ${fmt(liability.p)} (${liability.call})`,
      factor: liability.factor,
    });
  }

  let logSum = 0;
  let weights = 0;
  let sure = 0;
  for (const term of terms) {
    logSum += term.weight * Math.log(Math.max(term.d, 1e-6));
    weights += term.weight;
    if (term.status === "present") sure += term.weight;
  }
  // The alert screen, the Tox21 model and each liability model count one weight each towards confidence.
  const checks = [screened, tox21?.in_domain === true, ...liabilities.map((l) => l.call !== "unknown")];
  const confidence = (sure + checks.filter(Boolean).length) / (weights + checks.length);
  const factor = penalties.reduce((product, penalty) => product * penalty.factor, 1);
  const score = view.parsed ? Math.exp(logSum / weights) * factor : 0;
  const alertsFound = (pains?.length ?? 0) + (brenk?.length ?? 0) + (nibr?.length ?? 0) > 0;
  const clean =
    view.parsed &&
    screened &&
    !alertsFound &&
    !view.permanent_charge &&
    tox21?.in_domain === true &&
    tox21Active === 0 &&
    liabilities.every((l) => l.call === "negative");
  return {
    profile,
    score,
    confidence: view.parsed ? confidence : 0,
    terms,
    penalties: penalties.filter((penalty) => penalty.factor < 1),
    liabilities,
    uncertain,
    clean,
  };
}

/** Every liability model of the profile as read, with ClinTox. */
function readLiabilities(view: CompoundView): LiabilityReading[] {
  const organic = view.compound_class === "organic" || view.compound_class === "organic_salt";
  const readings: LiabilityReading[] = liabilityModelsOf(view.profile).map((id) =>
    reading(id, view.liabilities.models[id], organic),
  );
  const ct = view.liabilities.ct_tox;
  const ctCall: ModelCallView =
    ct === null
      ? {
          status: "not_run",
          reason: "clinical_precedent_prior did not run",
          source: "clinical_precedent_prior",
        }
      : !ct.in_domain || ct.probability === null
        ? {
            status: "out_of_domain",
            reason: "out of the ClinTox model's domain",
            source: "clinical_precedent_prior",
            estimate: null,
          }
        : {
            status: "in_domain",
            probability: ct.probability,
            // ClinTox has no conformal set: its call is the probability's side of 0.5.
            call: ct.probability >= 0.5 ? "positive" : "negative",
            source: "clinical_precedent_prior",
          };
  readings.push(reading("ct_tox", ctCall, organic));
  return readings;
}

function reading(id: LiabilityModel | "ct_tox", model: ModelCallView, organic: boolean): LiabilityReading {
  const weight = LIABILITY_WEIGHTS[id];
  if (model.status !== "in_domain") {
    // Out of the model's similarity floor its estimate still carries the skill the model keeps
    // there, measured on its scaffold-test compounds below the floor (science's
    // outOfDomainSkillShare): read it shrunk towards even odds by that share, never as a call.
    const share = id === "ct_tox" || !organic ? 0 : outOfDomainSkillShare(id);
    const estimate = model.status === "out_of_domain" && share > 0 ? model.estimate : null;
    const p = estimate === null ? UNINFORMATIVE : UNINFORMATIVE + share * (estimate - UNINFORMATIVE);
    return {
      id,
      label: LIABILITY_LABELS[id],
      weight,
      p,
      call: "unknown",
      factor: round((1 - p) ** weight, FACTOR_DIGITS),
      unknown_reason: model.status === "out_of_domain" ? "out of domain" : model.reason,
      out_of_domain_estimate: estimate === null ? null : { estimate, skill_share: share },
    };
  }
  return {
    id,
    label: LIABILITY_LABELS[id],
    weight,
    p: model.probability,
    call: model.call,
    factor: round((1 - model.probability) ** weight, FACTOR_DIGITS),
    unknown_reason: null,
    out_of_domain_estimate: null,
  };
}

/** A docked compound's best score, unless its pose failed the pose checks (a broken pose earns nothing). */
function bestDockingScore(docked: CompoundView["docking"][number]): number | null {
  if (docked.status !== "docked" || docked.pose_checks?.passed === false) return null;
  return docked.score !== null && Number.isFinite(docked.score) ? docked.score : null;
}

function fmt(value: number | null): string {
  return value === null ? "—" : String(Number(value.toFixed(2)));
}
