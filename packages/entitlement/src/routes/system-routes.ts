import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../app-deps.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { ServiceMetrics } from "../http/metrics.ts";
import { describeRoute } from "../http/route-schema.ts";

/** Probes, metrics and the OpenAPI document. */
export function registerSystemRoutes(app: FastifyInstance, deps: AppDeps, metrics: ServiceMetrics): void {
  const tags = ["system"];
  app.get(
    "/api/health",
    {
      schema: describeRoute({
        summary: "Liveness",
        tags,
        response: z.object({ status: z.literal("ok") }),
        errors: [],
      }),
    },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/api/ready",
    {
      schema: describeRoute({
        summary: "Readiness: the ledger store answers",
        tags,
        response: z.object({ status: z.literal("ready"), store: z.enum(["sqlite", "postgres"]) }),
        errors: [503],
      }),
    },
    async () => {
      try {
        await deps.store.ping();
      } catch {
        throw new EntitlementError("STORE_UNAVAILABLE");
      }
      return { status: "ready", store: deps.store.kind };
    },
  );
  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
