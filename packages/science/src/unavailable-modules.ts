/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 */
export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  cyp_assessment: "not available: no CYP inhibition data or validated CYP model is available offline",
  target_biology_risk:
    "not available: needs target annotations (targets.csv) and a target-safety knowledge base not held offline",
  clinical_precedent_prior:
    "not available: a nearest-approved-drug model and CT_TOX classifier on ClinTox are not built yet",
  gcn_toxicity:
    "not available: a graph network (or a fingerprint model under its own name) trained on Tox21 is not built yet",
  uncertainty_quantification:
    "not available: conformal intervals and applicability domains across modules are not built yet " +
    "(solubility_assessment reports its own domain)",
};
