/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 */
export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  cyp_assessment: "not available: no CYP inhibition data or validated CYP model is available offline",
  target_biology_risk:
    "not available: needs target annotations (targets.csv) and a target-safety knowledge base not held offline",
};
