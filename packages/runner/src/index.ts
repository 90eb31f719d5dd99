export { defaultRunId } from "@svc/core";
export { DOCKING_CHUNK, MOLECULAR_DOCKING_MAX_COMPOUNDS } from "@svc/science/structure-modules";
export { completeSeal } from "./complete-seal.ts";
export {
  FLAG_ENV,
  RUNNER_ENV_NAMES,
  type RunnerConfig,
  resolveRunConfig,
} from "./config.ts";
export {
  type AssayTable,
  type AssayValue,
  assertAssayCandidatesKnown,
  readAssayTable,
} from "./inputs/assays-csv.ts";
export {
  CANONICAL_PORTFOLIO_COLUMNS,
  findColumn,
  locatePortfolioColumns,
  normaliseColumnName,
  PORTFOLIO_COLUMNS,
  type PortfolioColumns,
  structureColumnHint,
} from "./inputs/column-names.ts";
export {
  formatBytes,
  PORTFOLIO_LIMIT_REASON,
  PORTFOLIO_MAX_BYTES,
  PORTFOLIO_MAX_ROWS,
  sniffInputFile,
} from "./inputs/input-file-limits.ts";
export { validatePortfolio } from "./inputs/portfolio.ts";
export { EntitlementClient, type SealBundleResponse } from "./lifecycle/entitlement-client.ts";
export { reportUsage } from "./lifecycle/metering.ts";
export {
  cloudTokenSource,
  devTokenSource,
  k8sTokenSource,
  type TokenSource,
} from "./lifecycle/token-source.ts";
export { createTokenSource, mainRun, mainSeal } from "./main.ts";
export { sealHashes } from "./outputs/seal-hashes.ts";
export { runAudit } from "./run-audit.ts";
export { EXIT, RUNNER_ERRORS, RunnerError, type RunnerErrorCode } from "./runner-error.ts";
