// @svc/science/target-risk: the staged targets and their biology risk.
export type { StagedTarget } from "./staged-target.ts";
