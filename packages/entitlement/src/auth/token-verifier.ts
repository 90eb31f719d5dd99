import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";
import { describeUnstorableText } from "../domain/storable-text.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { IssuerUnavailableError, type TrustedIssuer } from "./trusted-issuer.ts";

/** Asymmetric algorithms only: `none` and every HS* are refused before any key is looked at. */
export const ACCEPTED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"];

/** Principal policy (issue: 403 for suspended, or not on an allow list when one is set). */
export interface PrincipalPolicy {
  readonly allowed?: readonly string[];
  readonly suspended?: readonly string[];
}

export interface TokenVerifierOptions {
  readonly issuers: () => readonly TrustedIssuer[];
  /** The configured service address; read per call because it may be known only after listen. */
  readonly audience: () => string;
  readonly clockSkewSec: number;
  readonly policy?: PrincipalPolicy;
}

export interface VerifiedCaller {
  readonly principal: string;
  readonly issuer: string;
}

export type VerifyAuthorization = (header: string | undefined) => Promise<VerifiedCaller>;

// A runner sends the same token for its four calls and retries: remember a verified token for a
// short while (never past its exp) instead of checking its signature again. Policy still runs per call.
const CACHE_MAX_ENTRIES = 10_000;
const CACHE_MAX_AGE_MS = 60_000;

/** Builds the bearer-token check of every authenticated endpoint (spec §5.1, domain notes 401/403). */
export function createTokenVerifier(options: TokenVerifierOptions): VerifyAuthorization {
  const verified = new Map<string, { caller: VerifiedCaller; audience: string; until: number }>();
  return async (header) => {
    const cached = header === undefined ? undefined : verified.get(header);
    if (cached !== undefined && cached.until > Date.now() && cached.audience === options.audience()) {
      assertAllowed(cached.caller.principal, options.policy);
      return cached.caller;
    }
    const { caller, expiresAt } = await verifyHeader(options, header);
    if (verified.size >= CACHE_MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
    verified.set(header as string, {
      caller,
      audience: options.audience(),
      until: Math.min(expiresAt * 1000, Date.now() + CACHE_MAX_AGE_MS),
    });
    return caller;
  };
}

async function verifyHeader(
  options: TokenVerifierOptions,
  header: string | undefined,
): Promise<{ caller: VerifiedCaller; expiresAt: number }> {
  if (header === undefined || header.trim() === "") throw new EntitlementError("AUTH_MISSING");
  const match = /^Bearer +([A-Za-z0-9_.~+/=-]+)$/i.exec(header.trim());
  if (match === null) throw new EntitlementError("AUTH_MALFORMED", "expected Authorization: Bearer <JWT>");
  const token = match[1] as string;
  let claims: JWTPayload;
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
    claims = decodeJwt(token);
  } catch {
    throw new EntitlementError("AUTH_MALFORMED");
  }
  if (alg === undefined || !ACCEPTED_ALGORITHMS.includes(alg))
    throw new EntitlementError("AUTH_INVALID", `token algorithm ${String(alg)} is not accepted`);
  const issuers = options.issuers();
  const trusted = issuers.find((candidate) => candidate.issuer === claims.iss);
  // issue 14: name both the token's issuer and the trusted ones (public URLs), so a mismatch is plain
  if (trusted === undefined)
    throw new EntitlementError(
      "AUTH_UNTRUSTED_ISSUER",
      `issuer ${JSON.stringify(String(claims.iss ?? "(none)").slice(0, 200))} is not among the trusted issuers (${issuers.map((candidate) => candidate.issuer).join(", ")})`,
    );
  const audience = options.audience();
  let verified: JWTPayload;
  try {
    verified = (
      await jwtVerify(token, trusted.keys, {
        issuer: trusted.issuer,
        audience,
        algorithms: ACCEPTED_ALGORITHMS,
        clockTolerance: options.clockSkewSec,
        requiredClaims: ["exp", "iat"],
      })
    ).payload;
  } catch (error) {
    throw translateJoseError(error, trusted.issuer);
  }
  assertIssuedInThePast(verified, options.clockSkewSec, trusted.issuer);
  assertSoleAudience(verified, audience, trusted.issuer);
  const principal = principalOf(trusted, verified);
  assertAllowed(principal, options.policy);
  return { caller: { principal, issuer: trusted.issuer }, expiresAt: verified.exp ?? 0 };
}

function principalOf(issuer: TrustedIssuer, claims: JWTPayload): string {
  const principal = claimedPrincipal(issuer, claims);
  // issue 16: the principal is stored; text a store would refuse or alter is refused before any write
  const problem = describeUnstorableText(principal);
  if (problem !== null)
    throw new EntitlementError("REQUEST_INVALID", `claim ${issuer.principalClaim}: ${problem}`);
  return principal;
}

function claimedPrincipal(issuer: TrustedIssuer, claims: JWTPayload): string {
  if (issuer.principalClaim === "email") {
    // domain notes: Google principal in `email`, check `email_verified`
    if (typeof claims.email !== "string" || claims.email === "")
      throw new EntitlementError("AUTH_INVALID", "the token carries no email");
    if (claims.email_verified !== true && claims.email_verified !== "true")
      throw new EntitlementError("AUTH_INVALID", "the token's email is not verified");
    return claims.email;
  }
  if (typeof claims.sub !== "string" || claims.sub === "")
    throw new EntitlementError("AUTH_INVALID", "the token carries no subject");
  return claims.sub;
}

function assertAllowed(principal: string, policy: PrincipalPolicy | undefined): void {
  if (policy?.suspended?.includes(principal))
    throw new EntitlementError("PRINCIPAL_FORBIDDEN", "this principal is suspended");
  if (policy?.allowed !== undefined && policy.allowed.length > 0 && !policy.allowed.includes(principal))
    throw new EntitlementError("PRINCIPAL_FORBIDDEN", "this principal is not on the allow list");
}

/**
 * `iat` beyond the clock skew is refused (README: the skew applies to exp, iat and nbf): jose checks
 * `iat` only with maxTokenAge, and a token "issued" a year ahead is a forged or broken one.
 */
function assertIssuedInThePast(claims: JWTPayload, clockSkewSec: number, issuer: string): void {
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat === "number" && claims.iat > now + clockSkewSec)
    throw new EntitlementError(
      "AUTH_INVALID",
      `claim iat is ${claims.iat - now} s in the future, beyond the clock skew of ${clockSkewSec} s (issuer ${issuer})`,
    );
}

/**
 * A token for several audiences is accepted only when its authorized party (`azp`, OpenID Connect
 * Core 1.0 §2) is this service: otherwise a token minted for another service that merely also lists
 * us could be replayed here. A single audience must equal ours exactly (jose checked membership).
 */
function assertSoleAudience(claims: JWTPayload, audience: string, issuer: string): void {
  if (!Array.isArray(claims.aud) || claims.aud.length <= 1) return;
  if (claims.azp === audience) return;
  throw new EntitlementError(
    "AUTH_WRONG_AUDIENCE",
    `the token names ${claims.aud.length} audiences; accepted only when azp is ${audience} (issuer ${issuer})`,
  );
}

function translateJoseError(error: unknown, issuer: string): EntitlementError {
  const checked = `(issuer ${issuer})`;
  if (error instanceof IssuerUnavailableError) return new EntitlementError("AUTH_INVALID", error.message);
  if (error instanceof errors.JWTExpired)
    return new EntitlementError("AUTH_EXPIRED", `the identity token has expired ${checked}`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return new EntitlementError(
        "AUTH_WRONG_AUDIENCE",
        `the identity token is for another audience ${checked}`,
      );
    if (error.claim === "iss") return new EntitlementError("AUTH_UNTRUSTED_ISSUER");
    return new EntitlementError("AUTH_INVALID", `claim ${error.claim} failed: ${error.reason} ${checked}`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new EntitlementError("AUTH_INVALID", `signature verification failed ${checked}`);
  if (error instanceof errors.JWKSNoMatchingKey)
    return new EntitlementError("AUTH_INVALID", `no key of the issuer matches the token ${checked}`);
  if (error instanceof errors.JOSEError)
    return new EntitlementError("AUTH_INVALID", `${error.code} ${checked}`);
  return new EntitlementError("AUTH_INVALID", `the issuer's keys could not be fetched ${checked}`);
}
