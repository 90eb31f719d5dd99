// @svc/science/uncertainty: the one classifier call rule and the models' domains.
export type { ClassifierCall } from "./classifier-call.ts";
export type { UncertaintyFinding } from "./uncertainty-quantification.ts";
