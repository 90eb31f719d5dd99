/**
 * The target product profile a project is audited against (issue 36 item 2): which desirability
 * functions and liabilities order its compounds. One criterion set for every project was wrong: the
 * CNS MPO log D function (Wager et al., ACS Chem. Neurosci. 2010, 1, 435) suits a CNS programme, not
 * a kinase or an antibiotic one, and P-gp efflux is a liability only where the brain is the target.
 */
export const TARGET_PRODUCT_PROFILES = ["oral_peripheral", "oral_cns", "non_oral"] as const;

export type TargetProductProfile = (typeof TARGET_PRODUCT_PROFILES)[number];

/** The profile of a project whose sources.json names none. */
export const DEFAULT_PROFILE: TargetProductProfile = "oral_peripheral";

/** What each profile means, in words for `--help`, the summary and the report's first lines. */
export const PROFILE_DESCRIPTIONS: Readonly<Record<TargetProductProfile, string>> = {
  oral_peripheral:
    "oral drug acting outside the brain: log D 1–3 preferred, GI absorption and solubility count, brain access not sought",
  oral_cns:
    "oral drug acting in the brain: Wager's CNS MPO log D function, brain access (BOILED-Egg) counts, P-gp interaction is a liability",
  non_oral:
    "parenteral or local drug (injected, inhaled, topical): GI absorption and permanent charge do not count, solubility does",
};

export function isTargetProductProfile(value: unknown): value is TargetProductProfile {
  return typeof value === "string" && (TARGET_PRODUCT_PROFILES as readonly string[]).includes(value);
}
