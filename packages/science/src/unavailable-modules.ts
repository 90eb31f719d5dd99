/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 */
export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  synthesis_audit:
    "not available: the SA score (Ertl & Schuffenhauer 2009) needs RDKit's unhashed radius-2 Morgan ids, which " +
    "RDKit WebAssembly does not expose; it needs a TypeScript port proven id-for-id against native RDKit",
  cyp_assessment: "not available: no CYP inhibition data or validated CYP model is available offline",
  target_biology_risk:
    "not available: needs target annotations (targets.csv) and a target-safety knowledge base not held offline",
  gcn_toxicity:
    "not available: a graph convolutional network (MoleculeNet's GraphConv) cannot be trained and validated " +
    "honestly in this stack (no graph-network library, TypeScript only); the Tox21 fingerprint logistic " +
    "regression runs instead under its own name, toxicity_profile's tox21_fingerprint_model key",
  metabolite_prediction:
    "not available: site-of-metabolism reaction rules written from the literature are not built yet",
  wetlab_priority_and_readiness_determiner:
    "not available: the transparent ranking over the other modules' signals is not built yet",
};
