// @svc/science/toxicity: structural alerts and the toxicity models (Tox21, hERG, Ames, DILI).
export type { ToxicityProfileFinding } from "./toxicity-profile.ts";
