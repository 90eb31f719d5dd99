// @svc/science/solubility: log S models and SwissADME's solubility classes.
export { SOLUBILITY_CLASS_FLOORS, type SolubilityClass, solubilityClass } from "./esol.ts";
export { SOLUBILITY_TRAINING_DATA, type SolubilityFinding } from "./solubility-assessment.ts";
