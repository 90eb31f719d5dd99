import { createHash, timingSafeEqual } from "node:crypto";
import { PreflightError } from "../errors.ts";

const REALM = 'Bearer realm="svc-preflight"';

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Builds a constant-time token check: both sides are hashed to equal-length digests and compared
 * with `timingSafeEqual`, and every configured token is compared (no early exit), so neither the
 * token's content nor which entry matched shows in the timing.
 */
export function createTokenVerifier(tokens: readonly string[]): (presented: string) => boolean {
  const expected = tokens.map(digest);
  return (presented) => {
    const candidate = digest(presented);
    let matched = false;
    for (const token of expected) matched = timingSafeEqual(token, candidate) || matched;
    return matched;
  };
}

/**
 * Checks an `Authorization` header (spec §5.2 rule 1, RFC 6750 §3). Decision where spec §5.2 rule
 * 5 is silent: both a missing and a wrong token are 401 with `WWW-Authenticate: Bearer` (a wrong
 * token also carries `error="invalid_token"`), because neither request is authenticated; 403 is
 * kept for an authenticated caller who asks for something not allowed (a namespace).
 */
export function assertAuthorized(header: string | undefined, verify: (presented: string) => boolean): void {
  const match = header === undefined ? null : /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match?.[1]) throw new PreflightError("AUTH_MISSING", undefined, { "www-authenticate": REALM });
  if (!verify(match[1]))
    throw new PreflightError("AUTH_INVALID", undefined, {
      "www-authenticate": `${REALM}, error="invalid_token", error_description="The bearer token is not valid"`,
    });
}
