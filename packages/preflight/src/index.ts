export { type AppDeps, createApp, listRegisteredRoutes } from "./app.ts";
export {
  ConfigError,
  DOCKING_MAX_COMPOUNDS_BOUNDS,
  type KubeSource,
  loadConfig,
  PREFLIGHT_ENV_NAMES,
  type PreflightConfig,
} from "./config.ts";
export { ERROR_REGISTRY, PreflightError, type PreflightErrorCode } from "./errors.ts";
export { createPreflightMetrics, type PreflightMetrics } from "./http/metrics.ts";
export { createClientNodeGateway } from "./kube/client-node-gateway.ts";
export type { JobManifest, JobSummary, KubeGateway, PodLogRequest, PodSummary } from "./kube/kube-gateway.ts";
export { buildPipelineJob, type PipelineRunRequest } from "./kube/pipeline-job.ts";
export { main } from "./main.ts";
export { missingPipelineSettings } from "./pipeline-readiness.ts";
export { pipelineBodySchema } from "./routes/pipeline-routes.ts";
