import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Checks `X-SVC-ADMIN-TOKEN` against every configured token (several, for rotation). Comparing
 * SHA-256 digests with timingSafeEqual and never stopping early keeps the time independent of
 * which token matched or how much of one did. Returns the actor recorded in the ledger: a short
 * fingerprint of the token, never the token.
 */
export function createAdminTokenCheck(tokens: readonly string[]): (presented: unknown) => string {
  const digests = tokens.map(digest);
  return (presented) => {
    if (typeof presented !== "string" || presented === "") throw new EntitlementError("ADMIN_TOKEN_INVALID");
    const candidate = digest(presented);
    let matched = false;
    for (const known of digests) matched = timingSafeEqual(candidate, known) || matched;
    if (!matched) throw new EntitlementError("ADMIN_TOKEN_INVALID");
    return `admin:${candidate.toString("hex").slice(0, 12)}`;
  };
}

/**
 * The `onRequest` hook of the admin routes: `X-SVC-ADMIN-TOKEN` checked from the headers alone,
 * before any byte of the body is read (issue 38 item 4); the actor is kept on the request.
 */
export function requireAdmin(tokens: readonly string[]): (request: FastifyRequest) => Promise<void> {
  const check = createAdminTokenCheck(tokens);
  return async (request) => {
    request.adminActor = check(request.headers["x-svc-admin-token"]);
  };
}

/** The admin actor the route's {@link requireAdmin} hook verified. */
export function adminActorOf(request: FastifyRequest): string {
  if (request.adminActor === null) throw new Error("route is missing its admin hook");
  return request.adminActor;
}
