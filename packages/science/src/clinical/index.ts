// @svc/science/clinical: clinical precedent (nearest approved drugs, ClinTox).
export type { ClinicalPrecedentFinding } from "./clinical-precedent-prior.ts";
