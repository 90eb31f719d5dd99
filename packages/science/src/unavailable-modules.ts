/**
 * Why each policy module this build does not implement is `not_available`, and what it would
 * need (issue 11: never a placeholder number). Written into the module plan and the raw record.
 */
export const UNAVAILABLE_MODULES: Readonly<Record<string, string>> = {
  target_biology_risk:
    "not available: needs target annotations (targets.csv) and a target-safety knowledge base not held offline",
  gcn_toxicity:
    "not available: a graph convolutional network (MoleculeNet's GraphConv) cannot be trained and validated " +
    "honestly in this stack (no graph-network library, TypeScript only); the Tox21 fingerprint logistic " +
    "regression runs instead under its own name, toxicity_profile's tox21_fingerprint_model key",
};
