import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";
import { describeUnstorableText } from "../domain/storable-text.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { TrustedIssuer } from "./trusted-issuer.ts";

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
  const trusted = options.issuers().find((candidate) => candidate.issuer === claims.iss);
  if (trusted === undefined) throw new EntitlementError("AUTH_UNTRUSTED_ISSUER");
  let verified: JWTPayload;
  try {
    verified = (
      await jwtVerify(token, trusted.keys, {
        issuer: trusted.issuer,
        audience: options.audience(),
        algorithms: ACCEPTED_ALGORITHMS,
        clockTolerance: options.clockSkewSec,
        requiredClaims: ["exp", "iat"],
      })
    ).payload;
  } catch (error) {
    throw translateJoseError(error);
  }
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

function translateJoseError(error: unknown): EntitlementError {
  if (error instanceof errors.JWTExpired) return new EntitlementError("AUTH_EXPIRED");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return new EntitlementError("AUTH_WRONG_AUDIENCE");
    if (error.claim === "iss") return new EntitlementError("AUTH_UNTRUSTED_ISSUER");
    return new EntitlementError("AUTH_INVALID", `claim ${error.claim} failed: ${error.reason}`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new EntitlementError("AUTH_INVALID", "signature verification failed");
  if (error instanceof errors.JWKSNoMatchingKey)
    return new EntitlementError("AUTH_INVALID", "no key of the issuer matches the token");
  if (error instanceof errors.JOSEError) return new EntitlementError("AUTH_INVALID", error.code);
  return new EntitlementError("AUTH_INVALID", "the issuer's keys could not be fetched");
}
