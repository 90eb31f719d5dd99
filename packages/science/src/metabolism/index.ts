// @svc/science/metabolism: sites of metabolism and their rules.
export { METABOLISM_RULES } from "./metabolism-rules.ts";
export type { MetaboliteFinding } from "./metabolite-prediction.ts";
