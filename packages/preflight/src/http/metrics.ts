import { createHttpMetrics, type HttpMetrics } from "@svc/http-edge";
import { Counter, collectDefaultMetrics, Registry } from "prom-client";

/** The preflight service's Prometheus metrics; one registry per app so tests can build several. */
export interface PreflightMetrics extends HttpMetrics {
  readonly registry: Registry;
  /** Jobs created in Kubernetes, by kind (pipeline, smoke). */
  readonly jobsLaunched: Counter<"kind">;
  /** Body bytes written by the streaming endpoints (downloads, repro pack, logs). */
  readonly bytesStreamed: Counter<"route">;
}

/** Builds the registry served at `/metrics`. */
export function createPreflightMetrics(): PreflightMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "svc_preflight_" });
  return {
    registry,
    ...createHttpMetrics(registry, "svc_preflight_"),
    jobsLaunched: new Counter({
      name: "svc_preflight_jobs_launched_total",
      help: "Kubernetes Jobs created by this service",
      labelNames: ["kind"],
      registers: [registry],
    }),
    bytesStreamed: new Counter({
      name: "svc_preflight_bytes_streamed_total",
      help: "Response body bytes of downloads, repro packs and logs",
      labelNames: ["route"],
      registers: [registry],
    }),
  };
}
