import { computeQed } from "@svc/science";
import type { CompoundView } from "./compound-view.ts";

// The report's multi-parameter desirability score (issue 27 item 2). Every part is a published
// desirability function or a stated penalty, every part is shown on the card, and an input that is
// missing or outside its model's applicability domain never counts as good: it is scored at the
// uninformative 0.5 (at most 0.5 when out of domain) and lowers the compound's confidence.

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

/** A multiplicative penalty for an alert or a predicted liability. */
export interface Penalty {
  readonly id: string;
  readonly label: string;
  readonly factor: number;
}

export interface DesirabilityScore {
  /** Weighted geometric mean of the terms, times the penalties: 0 to 1, higher first. */
  readonly score: number;
  /** Share of the terms' weight (and of the liability models) measured in domain: 0 to 1. */
  readonly confidence: number;
  readonly terms: readonly DesirabilityTerm[];
  readonly penalties: readonly Penalty[];
  /** What lowered the confidence, in words. */
  readonly uncertain: readonly string[];
}

/** The score an unknown or untrusted input gets: neither good nor bad. */
export const UNINFORMATIVE = 0.5;

/** A linear ramp: 1 at or beyond `good`, 0 at or beyond `bad` (either direction). */
export function ramp(value: number, good: number, bad: number): number {
  const t = (value - bad) / (good - bad);
  return Math.min(1, Math.max(0, t));
}

// Penalty factors, stated in the ordering rule on the page.
export const PENALTIES = {
  /** PAINS (Baell & Holloway, J. Med. Chem. 2010, 53, 2719): assay-interference frequent hitters. */
  pains: 0.5,
  /** NIBR "EXCLUDE" substructures (Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425). */
  nibrExclude: 0.5,
  /** Any other NIBR flag. */
  nibrFlag: 0.85,
  /** Brenk unwanted groups (Brenk et al., ChemMedChem 2008, 3, 435). */
  brenk: 0.8,
  /** A permanent charge (quaternary N and the like): little passive permeation through membranes. */
  permanentCharge: 0.4,
  /** Per Tox21 assay predicted active (p ≥ 0.5, in domain); at most TOX21_FLOOR together. */
  tox21PerAssay: 0.9,
  tox21Floor: 0.5,
  /** ClinTox clinical-trial toxicity predicted (p ≥ 0.5, in domain). */
  ctTox: 0.8,
} as const;

/**
 * The desirability score of one compound:
 * - drug-likeness (weight 2): QED's seven property desirability functions (Bickerton et al., Nat.
 *   Chem. 2012, 4, 90; mean weights) on MW, WLOGP, HBA, HBD, TPSA, rotatable bonds and aromatic
 *   rings, with the ALERTS term at no alert, because alerts are penalised below, once;
 * - log D7.4 (weight 1): Wager et al.'s CNS MPO ClogD function (ACS Chem. Neurosci. 2010, 1, 435):
 *   1 at ≤ 2, 0 at ≥ 4;
 * - solubility (weight 1): log S of the adopted solubility model (`log_s`), 1 at ≥ −4 (soluble, Delaney 2004 / SwissADME classes), 0 at
 *   ≤ −6 (poorly soluble);
 * - GI absorption (weight 1): BOILED-Egg (Daina & Zoete 2016), high 1, low 0.25;
 * - synthetic accessibility (weight 1): SA score (Ertl & Schuffenhauer 2009), 1 at ≤ 4, 0 at ≥ 7;
 * combined as a weighted geometric mean (Derringer & Suich 1980), then multiplied by the penalties.
 */
export function desirabilityOf(view: CompoundView): DesirabilityScore {
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
  add(
    "logd74",
    "log D7.4",
    1,
    "Wager 2010 CNS MPO ClogD function",
    p.logd74.value,
    view.domain.logd74,
    (v) => ramp(v, 2, 4),
    (v) => `log D7.4 ${fmt(v)}`,
  );
  add(
    "solubility",
    "Solubility",
    1,
    "log S (adopted solubility model): 1 at ≥ −4, 0 at ≤ −6",
    p.log_s.value,
    view.domain.log_s,
    (v) => ramp(v, -4, -6),
    (v) => `log S ${fmt(v)} log(mol/L)`,
  );
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
  if (pains === null && brenk === null && nibr === null) uncertain.push("structural alerts not screened");
  if (view.permanent_charge)
    penalties.push({ id: "permanent_charge", label: "permanent charge", factor: PENALTIES.permanentCharge });
  const tox21 = view.liabilities.tox21;
  if (tox21 === null) uncertain.push("Tox21 model did not run");
  else if (!tox21.in_domain) uncertain.push("Tox21 model out of domain");
  else {
    const active = Object.entries(tox21.probabilities).filter(([, p]) => p >= 0.5);
    if (active.length > 0)
      penalties.push({
        id: "tox21",
        label: `Tox21 predicted active: ${active.map(([assay, p]) => `${assay} ${fmt(p)}`).join(", ")}`,
        factor: Math.max(PENALTIES.tox21Floor, PENALTIES.tox21PerAssay ** active.length),
      });
  }
  const ct = view.liabilities.ct_tox;
  if (ct === null) uncertain.push("ClinTox model did not run");
  else if (!ct.in_domain) uncertain.push("ClinTox model out of domain");
  else if (ct.probability !== null && ct.probability >= 0.5)
    penalties.push({
      id: "ct_tox",
      label: `ClinTox toxicity ${fmt(ct.probability)}`,
      factor: PENALTIES.ctTox,
    });

  let logSum = 0;
  let weights = 0;
  let sure = 0;
  for (const term of terms) {
    logSum += term.weight * Math.log(Math.max(term.d, 1e-6));
    weights += term.weight;
    if (term.status === "present") sure += term.weight;
  }
  // The liability models and the alert screen count as one weight each towards confidence.
  const checks = [
    pains !== null || brenk !== null || nibr !== null,
    tox21?.in_domain === true,
    ct?.in_domain === true,
  ];
  const confidence = (sure + checks.filter(Boolean).length) / (weights + checks.length);
  const factor = penalties.reduce((product, penalty) => product * penalty.factor, 1);
  const score = view.parsed ? Math.exp(logSum / weights) * factor : 0;
  return { score, confidence: view.parsed ? confidence : 0, terms, penalties, uncertain };
}

function fmt(value: number | null): string {
  return value === null ? "—" : String(Number(value.toFixed(2)));
}
