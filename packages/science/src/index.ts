export {
  type AnalysisModule,
  type CompoundFinding,
  evidenceId,
  type InputKind,
  type MethodCard,
  type ModuleAnalyzer,
  type RiskChannel,
  ratio,
} from "./analysis-module.ts";
export type { CompoundRow } from "./compound-row.ts";
export {
  DRUG_LIKENESS_RULES,
  type DrugLikenessFinding,
  type DrugLikenessSummary,
  evaluateRules,
  kinaseDrugLikeness,
  type RuleResult,
} from "./kinase-drug-likeness.ts";
export { type MolecularLogicFinding, type MolecularLogicSummary, molecularLogic } from "./molecular-logic.ts";
export { chooseParent, PARENT_RULE, type ParentChoice } from "./parent/choose-parent.ts";
export {
  type Descriptors,
  type ParsedChemistry,
  type PreparedCompound,
  prepareCompound,
} from "./prepare-compound.ts";
export { loadRDKit, type Mol, type ParseOutcome, parseSmiles, type RDKit } from "./rdkit.ts";
export { IMPLEMENTED_MODULES } from "./registry.ts";
export { findStructuralAlerts, type StructuralAlerts } from "./toxicity/structural-alerts.ts";
export {
  type ToxicityProfileFinding,
  type ToxicityProfileSummary,
  toxicityProfile,
} from "./toxicity/toxicity-profile.ts";
