export { type AppDeps, createApp, listRegisteredRoutes } from "./app.ts";
export { ConfigError, type KubeSource, loadConfig, type PreflightConfig } from "./config.ts";
export * from "./contract/preflight-schemas.ts";
export { ERROR_REGISTRY, PreflightError, type PreflightErrorCode } from "./errors.ts";
export { createPreflightMetrics, type PreflightMetrics } from "./http/metrics.ts";
export { createClientNodeGateway } from "./kube/client-node-gateway.ts";
export type { JobManifest, JobSummary, KubeGateway, PodLogRequest, PodSummary } from "./kube/kube-gateway.ts";
export { main } from "./main.ts";
export { pipelineBodySchema } from "./routes/pipeline-routes.ts";
