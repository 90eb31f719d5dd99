import { Counter, Histogram, type Registry } from "prom-client";

/** The request metrics both services publish, under each service's own prefix. */
export interface HttpMetrics {
  readonly httpRequests: Counter<"method" | "route" | "status">;
  readonly httpDuration: Histogram<"route">;
}

/**
 * Registers `<prefix>http_requests_total` (by method, route pattern and status) and
 * `<prefix>http_request_duration_seconds` (by route pattern) on `registry`. Routes are counted by
 * their pattern, never the raw URL, so label cardinality stays bounded.
 */
export function createHttpMetrics(registry: Registry, prefix: string): HttpMetrics {
  return {
    httpRequests: new Counter({
      name: `${prefix}http_requests_total`,
      help: "HTTP requests by route and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: "HTTP request duration",
      labelNames: ["route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
  };
}
