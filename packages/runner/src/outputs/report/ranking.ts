import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";
import {
  type DesirabilityScore,
  type DesirabilityTerm,
  desirabilityOf,
  PENALTIES,
  UNINFORMATIVE,
} from "./desirability.ts";

/** How the portfolio was ordered, printed on the page so a reader can check every position. */
export interface RankingRule {
  readonly source: "desirability_score";
  readonly text: string;
}

/** The sort key of one compound: compared element by element, lower first. */
export type RankKey = ArrayLike<number>;

/** How many numbers a rank key has (rankKeyOf). */
export const RANK_KEY_WIDTH = 7;

/** Score and confidence are compared as shown (3 and 2 decimals), so a tie on the page is a tie here. */
export const SCORE_DIGITS = 3;
export const CONFIDENCE_DIGITS = 2;

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
    -round(score, SCORE_DIGITS),
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
/** … each with at least this score and this confidence. */
export const FIRST_IN_LINE_SCORE = 0.5;
export const FIRST_IN_LINE_CONFIDENCE = 0.6;

/**
 * The bounded group sent to the lab first: the highest-ranked parsed, non-duplicate compounds with
 * score ≥ FIRST_IN_LINE_SCORE and confidence ≥ FIRST_IN_LINE_CONFIDENCE, at most
 * ceil(FIRST_IN_LINE_SHARE × compounds) and FIRST_IN_LINE_MAX (at least one place).
 */
export function firstInLine(ranked: readonly CompoundView[], compounds: number): CompoundView[] {
  const cap = Math.min(FIRST_IN_LINE_MAX, Math.max(1, Math.ceil(FIRST_IN_LINE_SHARE * compounds)));
  const group: CompoundView[] = [];
  for (const view of ranked) {
    if (group.length >= cap) break;
    const { score, confidence } = desirabilityOf(view);
    if (!inClassDomain(view) || view.duplicate_of !== null) break;
    if (
      round(score, SCORE_DIGITS) < FIRST_IN_LINE_SCORE ||
      round(confidence, CONFIDENCE_DIGITS) < FIRST_IN_LINE_CONFIDENCE
    )
      break;
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
  let text = `#1 ${name(first)} is first: score ${a.score.toFixed(SCORE_DIGITS)} (confidence ${a.confidence.toFixed(CONFIDENCE_DIGITS)})${
    a.penalties.length
      ? `, penalised for ${a.penalties.map((pen) => `${pen.label} ×${pen.factor}`).join("; ")}`
      : ", with no alert or predicted liability"
  }; its weakest term is ${wa.label.toLowerCase()} (d = ${wa.d.toFixed(2)}, ${wa.input}).`;
  if (second === undefined || !second.parsed) return text;
  const b = desirabilityOf(second);
  const gap = a.score - b.score;
  if (round(a.score, SCORE_DIGITS) === round(b.score, SCORE_DIGITS)) {
    return `${text} #2 ${name(second)} ties at ${b.score.toFixed(SCORE_DIGITS)} and is second by the tie-breaks (confidence ${b.confidence.toFixed(CONFIDENCE_DIGITS)}, then alerts, failed rules, portfolio order).`;
  }
  const ways: string[] = [];
  // Removing a penalty multiplies the score by 1/factor.
  for (const penalty of b.penalties)
    if (b.score / penalty.factor > a.score) ways.push(`without its ${penalty.label} (×${penalty.factor})`);
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
  text += ` #2 ${name(second)} scores ${b.score.toFixed(SCORE_DIGITS)}, ${gap.toFixed(SCORE_DIGITS)} lower; it would move above #1 ${
    ways.length ? ways.join(", or ") : "only with several terms improved together"
  }.`;
  return text;
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

/** The rule as printed on the page: every function, weight, penalty and tie-break. */
export function describeRanking(ran: ReadonlySet<string>): RankingRule {
  const skipped = [
    "admet_predictions",
    "solubility_assessment",
    "synthesis_audit",
    "toxicity_profile",
    "clinical_precedent_prior",
  ].filter((id) => !ran.has(id));
  const readiness = ran.has("wetlab_priority_and_readiness_determiner")
    ? " The readiness score of wetlab_priority_and_readiness_determiner is shown in the table and on each card but does not order the list (it scores missing signals as absent and does not penalise size or charge)."
    : "";
  return {
    source: "desirability_score",
    text: `Ranked by a desirability score from 0 to 1, higher first: the weighted geometric mean (Derringer & Suich 1980) of drug-likeness (weight 2: QED's seven property desirability functions, Bickerton et al. 2012, without its alerts term), log D7.4 (Wager et al. 2010 CNS MPO function: 1 at ≤ 2, 0 at ≥ 4), solubility (log S of the adopted solubility model, not ESOL: 1 at log S ≥ −4, 0 at ≤ −6), BOILED-Egg GI absorption (high 1, low 0.25) and SA score (1 at ≤ 4, 0 at ≥ 7), multiplied by penalties: PAINS ×${PENALTIES.pains}, NIBR exclude ×${PENALTIES.nibrExclude} (other NIBR flag ×${PENALTIES.nibrFlag}), Brenk ×${PENALTIES.brenk}, permanent charge ×${PENALTIES.permanentCharge}, each Tox21 assay predicted active ×${PENALTIES.tox21PerAssay} (at least ×${PENALTIES.tox21Floor}), ClinTox toxicity predicted ×${PENALTIES.ctTox}. A missing input is scored ${UNINFORMATIVE} and an out-of-domain one at most ${UNINFORMATIVE}, never as good; both lower the confidence (the share of inputs measured in domain). Compounds outside the organic classes (molecular_logic compound_class inorganic, organometallic, metal_complex or non_druglike_elements: no model speaks for them) come after every organic one and unparsed rows last; within each group duplicates come after first occurrences. Ties (equal score to ${SCORE_DIGITS} decimals) are broken by higher confidence, then fewer structural alerts, fewer failed drug-likeness rules, and portfolio order. First in line: the top ${FIRST_IN_LINE_SHARE * 100}% of the portfolio (at most ${FIRST_IN_LINE_MAX}) with score ≥ ${FIRST_IN_LINE_SCORE} and confidence ≥ ${FIRST_IN_LINE_CONFIDENCE}.${
      skipped.length ? ` Did not run, so scored as missing: ${skipped.join(", ")}.` : ""
    }${readiness}`,
  };
}
