import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * A caller's `X-Request-Id` is kept when it is short and plain (so a request can be followed across
 * a proxy, a client and both services' logs); anything else, or none, gets a fresh UUID. Plain means
 * no spaces, quotes or control characters that could forge a log line or a header.
 */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's `genReqId`: the caller's well-formed id, else a fresh one. */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers["x-request-id"];
  return typeof header === "string" && REQUEST_ID.test(header) ? header : randomUUID();
}
