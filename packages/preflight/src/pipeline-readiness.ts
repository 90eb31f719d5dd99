import type { PreflightConfig } from "./config.ts";

/**
 * Names of the settings `POST /api/pipeline/run` needs that are missing: the two of spec §4.2 rule 1,
 * and every one without which a launched Job could not start the runner (docs/contracts/runner-env.md:
 * SVC_ENTITLEMENT_URL is required, cloud identity needs a workload-identity service account) or reach
 * the data (docs/contracts/storage-layout.md).
 */
export function missingPipelineSettings(config: PreflightConfig): string[] {
  const missing: string[] = [];
  if (!config.runnerImage) missing.push("SVC_RUNNER_IMAGE");
  if (!config.appFullname) missing.push("SVC_APP_FULLNAME");
  if (config.layout.kind === "pvc" && !config.dataClaim) missing.push("SVC_DATA_CLAIM");
  if (!config.runnerPassThroughEnv.SVC_ENTITLEMENT_URL) missing.push("SVC_ENTITLEMENT_URL");
  const authMode = config.runnerPassThroughEnv.SVC_ENTITLEMENT_AUTH_MODE ?? "cloud";
  if (authMode === "cloud" && !config.runnerServiceAccount) missing.push("SVC_RUNNER_SERVICE_ACCOUNT");
  return missing;
}
