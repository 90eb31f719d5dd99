export { type AppDeps, createApp } from "./app.ts";
export { ConfigError, type KubeSource, loadConfig, type PreflightConfig } from "./config.ts";
export { ERROR_REGISTRY, PreflightError, type PreflightErrorCode } from "./errors.ts";
export { createClientNodeGateway } from "./kube/client-node-gateway.ts";
export type { JobManifest, JobSummary, KubeGateway, PodSummary } from "./kube/kube-gateway.ts";
export { main } from "./main.ts";
