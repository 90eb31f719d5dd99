import type { Writable } from "node:stream";

/** Header paths that carry credentials; pino replaces them wherever a request is logged. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  'req.headers["x-svc-admin-token"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-svc-admin-token"]',
];

/**
 * Structured JSON logs (pino via Fastify) with request ids and credentials redacted. Fastify's
 * default request serializer logs method, url and host only; the redaction is the second fence.
 */
export function createLoggerOptions(level: string, stream?: Writable): Record<string, unknown> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    ...(stream ? { stream } : {}),
  };
}
