import { PROFILE_DESCRIPTIONS, type TargetProductProfile } from "@svc/science/decision";
import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";
import {
  CNS_LOGD_RAMP,
  type DesirabilityScore,
  type DesirabilityTerm,
  DOCKING_RAMP,
  desirabilityOf,
  LIABILITY_LABELS,
  LIABILITY_WEIGHTS,
  liabilityModelsOf,
  PENALTIES,
  POTENCY_RAMP,
  SOLUBILITY_RAMP,
  UNINFORMATIVE,
} from "./desirability.ts";
import { formatBound } from "./format.ts";

/** How the portfolio was ordered, printed on the page so a reader can check every position. */
export interface RankingRule {
  readonly source: "desirability_score";
  readonly text: string;
}

/** The sort key of one compound: compared element by element, lower first. */
export type RankKey = ArrayLike<number>;

/** How many numbers a rank key has (rankKeyOf). */
export const RANK_KEY_WIDTH = 7;

/**
 * Score and confidence are compared as shown (score to 3 significant digits, since liabilities read
 * at (1 − p)^w can make it small; confidence to 2 decimals), so a tie on the page is a tie here.
 */
export const SCORE_SIGNIFICANT = 3;
export const CONFIDENCE_DIGITS = 2;

/** The score as the page shows it. */
export function formatScore(score: number): string {
  const text = score.toPrecision(SCORE_SIGNIFICANT);
  // Plain decimals on the page (9.76e-8 reads as a typo to most readers): the same number written out.
  return text.includes("e") ? Number(text).toFixed(20).replace(/0+$/, "") : text;
}

/** The score as compared: the number the page shows. */
export function shownScore(score: number): number {
  return Number(formatScore(score));
}

/**
 * The compound classes the models speak for (molecular_logic.compound_class, issue 24 item 2); a
 * compound of another class (inorganic, organometallic, metal complex, non-drug-like elements) has
 * no model estimate in domain, so it never ranks above one that has, as if its evidence were complete.
 */
const IN_DOMAIN_CLASSES: ReadonlySet<string> = new Set(["organic", "organic_salt"]);

/** Parsed and inside the organic classes (a run without molecular_logic has no class: counted in). */
export function inClassDomain(view: CompoundView): boolean {
  return view.parsed && (view.compound_class === null || IN_DOMAIN_CLASSES.has(view.compound_class));
}

/**
 * The sort key, compared element by element, lower first: parsed compounds inside the organic
 * classes first, then parsed ones outside them, then unparsed; first occurrences before
 * duplicates, higher desirability score (as shown, 3 decimals), then the visible tie-breaks:
 * higher confidence, fewer structural alerts, fewer failed drug-likeness rules, portfolio order.
 */
export function rankKeyOf(view: CompoundView): RankKey {
  const alerts = ALERT_FAMILIES.reduce((sum, family) => sum + (view.alerts[family]?.length ?? 0), 0);
  const failedRules = RULE_NAMES.filter((rule) => {
    const outcome = view.rules[rule];
    return "pass" in outcome && !outcome.pass;
  }).length;
  const { score, confidence } = desirabilityOf(view);
  return [
    inClassDomain(view) ? 0 : view.parsed ? 1 : 2,
    view.duplicate_of === null ? 0 : 1,
    -shownScore(score),
    -round(confidence, CONFIDENCE_DIGITS),
    alerts,
    failedRules,
    view.index,
  ];
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

/** "First in line": at most this share of the portfolio … */
export const FIRST_IN_LINE_SHARE = 0.1;
/** … and no more than this many … */
export const FIRST_IN_LINE_MAX = 10;
/**
 * … each with at least this score and this confidence. The score is the desirability times each
 * liability model's chance of no liability: a compound whose hERG, DILI, Ames and ClinTox models
 * each give p ≤ 0.3 keeps 0.7⁴ ≈ 0.24 of its desirability, so 0.15 admits it at a desirability of
 * about 0.6 and refuses one with a liability near even odds.
 */
export const FIRST_IN_LINE_SCORE = 0.15;
export const FIRST_IN_LINE_CONFIDENCE = 0.6;

/**
 * The bounded group sent to the lab first: the highest-ranked parsed, non-duplicate compounds with
 * score ≥ FIRST_IN_LINE_SCORE and confidence ≥ FIRST_IN_LINE_CONFIDENCE and no liability called
 * positive, at most
 * ceil(FIRST_IN_LINE_SHARE × compounds) and FIRST_IN_LINE_MAX (at least one place).
 */
export function firstInLine(ranked: readonly CompoundView[], compounds: number): CompoundView[] {
  const cap = Math.min(FIRST_IN_LINE_MAX, Math.max(1, Math.ceil(FIRST_IN_LINE_SHARE * compounds)));
  const group: CompoundView[] = [];
  for (const view of ranked) {
    if (group.length >= cap) break;
    const { score, confidence, liabilities } = desirabilityOf(view);
    if (!inClassDomain(view) || view.duplicate_of !== null) break;
    if (
      shownScore(score) < FIRST_IN_LINE_SCORE ||
      round(confidence, CONFIDENCE_DIGITS) < FIRST_IN_LINE_CONFIDENCE
    )
      break;
    // A compound with a liability called positive is never sent first, however it scores (issue 36 item 1).
    if (liabilities.some((liability) => liability.call === "positive")) continue;
    group.push(view);
  }
  return group;
}

/** Why #1 is first, and what would move #2 above it, in one or two sentences. */
export function explainTop(first: CompoundView | undefined, second: CompoundView | undefined): string {
  if (first === undefined) return "No compound to rank.";
  const a = desirabilityOf(first);
  const name = (view: CompoundView) => `${view.candidate_id}${view.name ? ` (${view.name})` : ""}`;
  if (!first.parsed) return `No compound parses; ${name(first)} is first by portfolio order only.`;
  const weakest = (score: DesirabilityScore) =>
    [...score.terms].sort((x, y) => x.d - y.d || y.weight - x.weight)[0] as DesirabilityTerm;
  const wa = weakest(a);
  let text = `#1 ${name(first)} is first: score ${formatScore(a.score)} (confidence ${a.confidence.toFixed(CONFIDENCE_DIGITS)}); ${evidenceOf(a)}; its weakest term is ${wa.label.toLowerCase()} (d = ${wa.d.toFixed(2)}, ${wa.input}).`;
  if (second === undefined || !second.parsed) return text;
  const b = desirabilityOf(second);
  const gap = a.score - b.score;
  if (shownScore(a.score) === shownScore(b.score)) {
    return `${text} #2 ${name(second)} ties at ${formatScore(b.score)} and is second by the tie-breaks (confidence ${b.confidence.toFixed(CONFIDENCE_DIGITS)}, then alerts, failed rules, portfolio order).`;
  }
  const ways: string[] = [];
  // Removing a penalty multiplies the score by 1/factor.
  // A liability called negative is not a way up: a model cannot be asked for a lower probability.
  const negative = new Set(b.liabilities.filter((l) => l.call === "negative").map((l) => l.id as string));
  for (const penalty of b.penalties)
    if (!negative.has(penalty.id) && b.score / penalty.factor > a.score)
      ways.push(`without its ${penalty.label} (×${Number(penalty.factor.toFixed(2))})`);
  // Raising one term to d' multiplies the score by (d'/d)^(w/W).
  const total = b.terms.reduce((sum, term) => sum + term.weight, 0);
  for (const term of [...b.terms].sort((x, y) => x.d - y.d)) {
    const needed = term.d * (a.score / b.score) ** (total / term.weight);
    if (needed <= 1 && term.d < 1)
      ways.push(
        `if its ${term.label.toLowerCase()} desirability rose from ${term.d.toFixed(2)} to ${Math.min(1, needed + 0.005).toFixed(2)} (${term.method}; now ${term.input})`,
      );
    if (ways.length >= 2) break;
  }
  text += ` #2 ${name(second)} scores ${formatScore(b.score)}, ${formatScore(gap)} lower; it would move above #1 ${
    ways.length ? ways.join(", or ") : "only with several terms improved together"
  }.`;
  return text;
}

/**
 * What moved a compound's score, in words (issue 36 item 1, issue 37 item 4): the liabilities called
 * positive or uncertain with their probability, the alerts, the models that could not speak (unknown
 * is named, never read as clean), and the measured potency or docking that lifted it. "No alert or
 * predicted liability" only when every liability model ran in domain and was called negative.
 */
export function evidenceOf(score: DesirabilityScore): string {
  if (score.clean) return "no alert or predicted liability (every liability model in domain and negative)";
  const called = score.liabilities.filter((l) => l.call === "positive" || l.call === "uncertain");
  const unknown = score.liabilities.filter((l) => l.call === "unknown");
  const other = score.penalties.filter((p) => !score.liabilities.some((l) => l.id === p.id));
  const parts: string[] = [];
  if (called.length > 0)
    parts.push(
      `predicted liabilities: ${called.map((l) => `${l.label} p ${l.p.toFixed(2)} (${l.call}, ×${l.factor.toFixed(2)})`).join("; ")}`,
    );
  if (other.length > 0) parts.push(`penalised for ${other.map((p) => `${p.label} ×${p.factor}`).join("; ")}`);
  if (unknown.length > 0)
    parts.push(
      `unknown, not clean: ${unknown
        .map((l) =>
          l.out_of_domain_estimate === null
            ? `${l.label} (${l.unknown_reason})`
            : `${l.label} (out of domain; estimate ${l.out_of_domain_estimate.estimate.toFixed(2)} read at p ${l.p.toFixed(2)}, ×${l.factor.toFixed(2)})`,
        )
        .join("; ")}`,
    );
  if (parts.length === 0) parts.push("no liability called positive or uncertain");
  const lifted = score.terms.filter((t) => t.id === "potency" || t.id.startsWith("docking_"));
  if (lifted.length > 0)
    parts.push(
      `moved by ${lifted.map((t) => `${t.label.toLowerCase()} ${t.input} (d = ${t.d.toFixed(2)})`).join("; ")}`,
    );
  return parts.join("; ");
}

export function compareRankKeys(a: RankKey, b: RankKey): number {
  return compareRankKeysAt(a, 0, b, 0);
}

/**
 * compareRankKeys on keys stored inside larger arrays: the RANK_KEY_WIDTH numbers from `startA`
 * in `a` against those from `startB` in `b` (RankKeyTable compares in place, allocating nothing).
 */
export function compareRankKeysAt(a: RankKey, startA: number, b: RankKey, startB: number): number {
  for (let part = 0; part < RANK_KEY_WIDTH; part++) {
    const diff = (a[startA + part] ?? 0) - (b[startB + part] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The rule as printed on the page: the profile, every function, weight, penalty and tie-break. */
export function describeRanking(ran: ReadonlySet<string>, profile: TargetProductProfile): RankingRule {
  const skipped = [
    "admet_predictions",
    "solubility_assessment",
    "synthesis_audit",
    "toxicity_profile",
    "cyp_assessment",
    "clinical_precedent_prior",
  ].filter((id) => !ran.has(id));
  const readiness = ran.has("wetlab_priority_and_readiness_determiner")
    ? " The readiness score of wetlab_priority_and_readiness_determiner is shown in the table and on each card but does not order the list (it scores missing signals as absent and does not penalise size or charge)."
    : "";
  const logd =
    profile === "oral_cns"
      ? `log D7.4 (Wager et al. 2010 CNS MPO function: 1 at ≤ ${formatBound(CNS_LOGD_RAMP.good)}, 0 at ≥ ${formatBound(CNS_LOGD_RAMP.bad)})`
      : "log D7.4 (Waring 2010 range: 1 from 1 to 3, 0 at ≤ −1 and ≥ 5)";
  const absorption =
    profile === "non_oral"
      ? ""
      : ", BOILED-Egg GI absorption (high 1, low 0.25)" +
        (profile === "oral_cns" ? ", BOILED-Egg brain access (yolk 1, outside 0.25)" : "");
  const liabilities = [...liabilityModelsOf(profile), "ct_tox" as const]
    .map((id) => `${LIABILITY_LABELS[id]} w ${LIABILITY_WEIGHTS[id]}`)
    .join(", ");
  return {
    source: "desirability_score",
    text: `Target product profile ${profile}: ${PROFILE_DESCRIPTIONS[profile]}. Ranked by a desirability score from 0 to 1, higher first: the weighted geometric mean (Derringer & Suich 1980) of drug-likeness (weight 2: QED's seven property desirability functions, Bickerton et al. 2012, without its alerts term), ${logd}, solubility (log S of the adopted solubility model, not ESOL: 1 at log S ≥ ${formatBound(SOLUBILITY_RAMP.good)}, 0 at ≤ ${formatBound(SOLUBILITY_RAMP.bad)})${absorption}, SA score (1 at ≤ 4, 0 at ≥ 7), the customer's measured potency where assays are staged (weight ${POTENCY_RAMP.weight}: 1 at pActivity ≥ ${POTENCY_RAMP.good}, 0 at ≤ ${POTENCY_RAMP.bad}) and the best docking score within each receptor where docked (weight ${DOCKING_RAMP.weight}: 1 at ≤ ${DOCKING_RAMP.good}, 0 at ≥ ${DOCKING_RAMP.bad} kcal/mol; a pose that fails its checks earns nothing); multiplied by every liability model as (1 − p)^w, the desirability of not having it (${liabilities}; a model not run is read at p ${UNINFORMATIVE}: unknown, never clean; out of its similarity floor its estimate is read shrunk towards ${UNINFORMATIVE} by the share of its skill the model keeps below the floor on its scaffold-test compounds, and its call stays unknown) and by penalties: PAINS ×${PENALTIES.pains}, NIBR exclude ×${PENALTIES.nibrExclude} (other NIBR flag ×${PENALTIES.nibrFlag}), Brenk ×${PENALTIES.brenk}${profile === "non_oral" ? "" : `, permanent charge ×${PENALTIES.permanentCharge}`}, each Tox21 assay predicted active ×${PENALTIES.tox21PerAssay} (at least ×${PENALTIES.tox21Floor}). A missing property is scored ${UNINFORMATIVE} and an out-of-domain one at most ${UNINFORMATIVE}, never as good; both lower the confidence (the share of inputs and liability models measured in domain). Compounds outside the organic classes (molecular_logic compound_class inorganic, organometallic, metal_complex or non_druglike_elements: no model speaks for them) come after every organic one and unparsed rows last; within each group duplicates come after first occurrences. Ties (equal score to ${SCORE_SIGNIFICANT} significant digits) are broken by higher confidence, then fewer structural alerts, fewer failed drug-likeness rules, and portfolio order. First in line: the top ${FIRST_IN_LINE_SHARE * 100}% of the portfolio (at most ${FIRST_IN_LINE_MAX}) with score ≥ ${FIRST_IN_LINE_SCORE} and confidence ≥ ${FIRST_IN_LINE_CONFIDENCE}, none with a liability called positive.${
      skipped.length ? ` Did not run, so read as unknown: ${skipped.join(", ")}.` : ""
    }${readiness}`,
  };
}
