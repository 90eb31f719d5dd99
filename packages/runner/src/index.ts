export { completeSeal } from "./complete-seal.ts";
export { defaultRunId, FLAG_ENV, type RunnerConfig, resolveRunConfig } from "./config.ts";
export { EntitlementClient, type SealBundleResponse } from "./lifecycle/entitlement-client.ts";
export { reportUsage } from "./lifecycle/metering.ts";
export {
  cloudTokenSource,
  devTokenSource,
  k8sTokenSource,
  type TokenSource,
} from "./lifecycle/token-source.ts";
export { createTokenSource, mainRun, mainSeal } from "./main.ts";
export { type PreparedCompound, prepareCompound } from "./modules/prepare-compound.ts";
export { loadRDKit, type RDKit } from "./modules/rdkit.ts";
export { sealHashes } from "./outputs/seal-hashes.ts";
export { runAudit } from "./run-audit.ts";
export { EXIT, RUNNER_ERRORS, RunnerError, type RunnerErrorCode } from "./runner-error.ts";
