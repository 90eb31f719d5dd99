import { ALERT_FAMILIES, type CompoundView, RULE_NAMES } from "./compound-view.ts";

/** How the portfolio was ordered, printed on the page so a reader can check every position. */
export interface RankingRule {
  readonly source: "wetlab_priority_and_readiness_determiner" | "transparent_ordering";
  readonly text: string;
}

/** The sort key of one compound: compared element by element, lower first. */
export type RankKey = ArrayLike<number>;

/** How many numbers a rank key has (rankKeyOf). */
export const RANK_KEY_WIDTH = 7;

/**
 * The readiness determiner's score when that module ran; otherwise an ordering built only from
 * what ran, each step a fact on the compound's card: parsed first, non-duplicates first, fewer
 * structural alerts, fewer failed drug-likeness rules, higher QED, then portfolio order.
 */
export function rankKeyOf(view: CompoundView): RankKey {
  const alerts = ALERT_FAMILIES.reduce((sum, family) => sum + (view.alerts[family]?.length ?? 0), 0);
  const failedRules = RULE_NAMES.filter((rule) => {
    const outcome = view.rules[rule];
    return "pass" in outcome && !outcome.pass;
  }).length;
  const qed = view.props.qed.value ?? 0;
  return [
    -(view.readiness?.score ?? 0),
    view.parsed ? 0 : 1,
    view.duplicate_of === null ? 0 : 1,
    alerts,
    failedRules,
    -qed,
    view.index,
  ];
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

/** The rule as it applies to this run: steps whose module did not run are named as skipped. */
export function describeRanking(ran: ReadonlySet<string>): RankingRule {
  if (ran.has("wetlab_priority_and_readiness_determiner"))
    return {
      source: "wetlab_priority_and_readiness_determiner",
      text: "Ranked by the readiness score of wetlab_priority_and_readiness_determiner (higher first); ties broken by portfolio order.",
    };
  const steps = [
    "structures that parse before those that do not",
    "first occurrences before duplicates (same parent InChIKey)",
    ran.has("toxicity_profile")
      ? "fewer PAINS + Brenk + NIBR alert matches first"
      : "(alert count skipped: toxicity_profile did not run)",
    "fewer failed drug-likeness rules first (Lipinski, Veber, Egan, and Ghose, Muegge, lead-likeness when admet_predictions ran)",
    ran.has("admet_predictions") ? "higher QED first" : "(QED skipped: admet_predictions did not run)",
    "then portfolio order",
  ];
  return {
    source: "transparent_ordering",
    text: `wetlab_priority_and_readiness_determiner did not run, so this is not a readiness ranking but an ordering from what ran: ${steps.join("; ")}.`,
  };
}
