// @svc/science/fingerprint: classifier quality over fingerprint models.
export { rocAuc } from "./roc-auc.ts";
