// @svc/science/metabolism: sites of metabolism and their rules.
export { METABOLISM_RULES } from "./metabolism-rules.ts";
