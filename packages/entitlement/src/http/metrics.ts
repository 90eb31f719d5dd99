import { createHttpMetrics, type HttpMetrics } from "@svc/http-edge";
import { Counter, collectDefaultMetrics, Registry } from "prom-client";
import type { LedgerEventListener } from "../store/ledger-events.ts";

/** The service's Prometheus metrics, one registry per app so tests can build several apps. */
export interface ServiceMetrics extends HttpMetrics {
  readonly registry: Registry;
  /** Consumed runs per profile: standard and deep are billed as different metrics (issue). */
  readonly runsConsumed: Counter<"mode" | "funding">;
  readonly runsGranted: Counter<"mode" | "kind">;
  readonly sealsIssued: Counter<"mode">;
  /** Idempotent retries answered from what was stored, by operation: never counted as events. */
  readonly replays: Counter<"operation">;
  readonly sealVerifications: Counter<"state">;
}

export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "svc_entitlement_" });
  return {
    registry,
    ...createHttpMetrics(registry, "svc_entitlement_"),
    runsConsumed: new Counter({
      name: "svc_entitlement_runs_consumed_total",
      help: "Runs charged, once per run_id (retries are in svc_entitlement_replays_total), by profile and funding",
      labelNames: ["mode", "funding"],
      registers: [registry],
    }),
    runsGranted: new Counter({
      name: "svc_entitlement_runs_granted_total",
      help: "Runs granted by admin issue (replayed grants excluded) or rerun credits given by redemption",
      labelNames: ["mode", "kind"],
      registers: [registry],
    }),
    sealsIssued: new Counter({
      name: "svc_entitlement_seals_issued_total",
      help: "Seals signed by run_complete, once per run (retries are in svc_entitlement_replays_total)",
      labelNames: ["mode"],
      registers: [registry],
    }),
    replays: new Counter({
      name: "svc_entitlement_replays_total",
      help: "Idempotent retries answered from the ledger, by operation (consume, grant, run_complete)",
      labelNames: ["operation"],
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

/**
 * Counts the store's committed events (issue 16 item 5): each consume, grant, seal and redemption
 * once, on either store, however many retries or replicas answered it; replays on their own counter.
 */
export function countLedgerEvents(metrics: ServiceMetrics): LedgerEventListener {
  return (event) => {
    if (event.kind === "redemption") {
      metrics.runsGranted.inc({ mode: event.mode, kind: "redemption_grant" });
      return;
    }
    if (event.replayed) {
      metrics.replays.inc({ operation: event.kind === "seal_issued" ? "run_complete" : event.kind });
      return;
    }
    if (event.kind === "consume") metrics.runsConsumed.inc({ mode: event.mode, funding: event.funding });
    else if (event.kind === "grant") metrics.runsGranted.inc({ mode: event.mode, kind: "grant" }, event.runs);
    else metrics.sealsIssued.inc({ mode: event.mode });
  };
}
