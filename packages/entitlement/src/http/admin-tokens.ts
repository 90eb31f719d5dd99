import { createHash, timingSafeEqual } from "node:crypto";
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
