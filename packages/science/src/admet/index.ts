// @svc/science/admet: drug-likeness, physicochemical and pharmacokinetic predictions (SwissADME's
// rules, radar and BOILED-Egg; QED; the TDC models and their domain).

export {
  DRUG_LIKENESS_RULES,
  type DrugLikenessFinding,
  type DrugLikenessSummary,
} from "../kinase-drug-likeness.ts";
export type { AdmetFinding } from "./admet-predictions.ts";
export { RADAR_RANGES } from "./bioavailability-radar.ts";
export { BOILED_EGG, BOILED_EGG_CITATION, ellipseOutline } from "./boiled-egg.ts";
export type { CypFinding } from "./cyp-assessment.ts";
export { RULE_SETS } from "./drug-likeness-rules.ts";
export { computeQed } from "./qed.ts";
export { tdcInputs } from "./tdc-compound.ts";
export { parseTdc, TDC_DATASETS } from "./tdc-datasets.ts";
export { outOfDomainSkillShare } from "./tdc-domain-file.ts";
export { classifyTdc, readTdcModelFile, regressTdc, tdcModel } from "./tdc-model.ts";
