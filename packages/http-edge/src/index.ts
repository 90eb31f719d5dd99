export { closeGracefully } from "./close-gracefully.ts";
export { bodyPendingUnread, closeUnread, UNREAD_CLOSE_GRACE_MS } from "./close-unread.ts";
export { classifyFrameworkError, type EdgeAnswer, type EdgeErrorCodes } from "./edge-error-codes.ts";
export { type DescribeCode, errorEnvelope } from "./error-envelope.ts";
export { createHttpMetrics, type HttpMetrics } from "./http-metrics.ts";
export {
  afterHttpEdge,
  edgeServerOptions,
  HTTP_EDGE_PLUGIN,
  type HttpEdgeOptions,
  httpEdge,
  REQUEST_TIMEOUT_BOUNDS,
  requestTimeoutsOf,
} from "./install-http-edge.ts";
export { describeListenProblem, ListenProblem } from "./listen-problem.ts";
export { createLoggerOptions, isLogLevel, LOG_LEVELS, type LogLevel, REDACTED_PATHS } from "./log-options.ts";
export { REQUEST_ID, requestIdOf } from "./request-id.ts";
export { runService, type ServiceParts, startHttpService } from "./run-service.ts";
export { SERVICE_PROCESS, type ServiceProcess } from "./service-process.ts";
