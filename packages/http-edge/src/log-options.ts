import type { Writable } from "node:stream";

/** pino's levels, the only values a service's log-level setting accepts. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

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
export function createLoggerOptions(level: LogLevel, stream?: Writable): Record<string, unknown> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    ...(stream ? { stream } : {}),
  };
}
