// @svc/science/solubility: log S models and SwissADME's solubility classes.
export { type SolubilityClass, solubilityClass } from "./esol.ts";
export { SOLUBILITY_TRAINING_DATA } from "./solubility-assessment.ts";
