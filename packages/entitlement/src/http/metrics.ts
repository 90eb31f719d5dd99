import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The service's Prometheus metrics, one registry per app so tests can build several apps. */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<"method" | "route" | "status">;
  readonly httpDuration: Histogram<"route">;
  /** Consumed runs per profile: standard and deep are billed as different metrics (issue). */
  readonly runsConsumed: Counter<"mode">;
  readonly runsGranted: Counter<"mode" | "kind">;
  readonly sealsIssued: Counter;
  readonly sealVerifications: Counter<"state">;
}

export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "svc_entitlement_" });
  return {
    registry,
    httpRequests: new Counter({
      name: "svc_entitlement_http_requests_total",
      help: "HTTP requests by route and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "svc_entitlement_http_request_duration_seconds",
      help: "HTTP request duration",
      labelNames: ["route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    runsConsumed: new Counter({
      name: "svc_entitlement_runs_consumed_total",
      help: "Consume calls answered 200 (idempotent retries included), by run profile",
      labelNames: ["mode"],
      registers: [registry],
    }),
    runsGranted: new Counter({
      name: "svc_entitlement_runs_granted_total",
      help: "Runs granted by admin issue or seal redemption",
      labelNames: ["mode", "kind"],
      registers: [registry],
    }),
    sealsIssued: new Counter({
      name: "svc_entitlement_seals_issued_total",
      help: "Seals issued by run_complete",
      registers: [registry],
    }),
    sealVerifications: new Counter({
      name: "svc_entitlement_seal_verifications_total",
      help: "Seal verifications by resulting state",
      labelNames: ["state"],
      registers: [registry],
    }),
  };
}
