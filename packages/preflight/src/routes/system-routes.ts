import type { FastifyInstance } from "fastify";
import type { PreflightMetrics } from "../http/metrics.ts";
import { buildOpenApiDocument } from "../openapi/openapi-document.ts";

/** `GET /openapi.json` and `GET /metrics` (open, like the probes: they carry no run data). */
export function registerSystemRoutes(app: FastifyInstance, metrics: PreflightMetrics): void {
  // The document's version is the API's, fixed, so the checked-in copy does not change per release.
  const document = buildOpenApiDocument("1.0.0");
  app.get("/openapi.json", async () => document);
  app.get("/metrics", async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
