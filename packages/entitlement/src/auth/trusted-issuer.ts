import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from "jose";
import { EntitlementError } from "../errors/entitlement-error.ts";

/** An issuer whose ID tokens the service accepts, and how a principal is read from them. */
export interface TrustedIssuer {
  /** Exact `iss` value. */
  readonly issuer: string;
  /** `email` (Google, needs `email_verified`) or `sub` (Kubernetes, dev issuer). */
  readonly principalClaim: "email" | "sub";
  readonly keys: JWTVerifyGetKey;
}

export interface RemoteKeysOptions {
  /** Minimum time between two JWKS fetches (an unknown kid refetches only after it). */
  readonly cooldownMs?: number;
  /** How long fetched keys are trusted without a refetch. */
  readonly cacheMaxAgeMs?: number;
  /**
   * After a failed discovery or JWKS fetch, no new fetch for this long, doubling per further
   * failure up to 64 times it (issue 16: a failing issuer was refetched for every forged token).
   */
  readonly failureBackoffMs?: number;
}

/**
 * The issuer's keys could not be fetched, or a fetch failed recently and backoff is in force: the
 * token cannot be verified, so it is refused as AUTH_INVALID (the registry's 401).
 */
export class IssuerUnavailableError extends EntitlementError {
  readonly issuer: string;
  readonly retryInMs: number;

  constructor(issuer: string, retryInMs: number, cause?: unknown) {
    super(
      "AUTH_INVALID",
      `the keys of issuer ${issuer} could not be fetched; next attempt in ${Math.ceil(retryInMs / 1000)} s`,
      { cause },
    );
    this.issuer = issuer;
    this.retryInMs = retryInMs;
  }
}

// A key lookup that failed because the token names no key, not because the issuer is down.
const isKeyMismatch = (error: unknown) =>
  error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys;

/**
 * Negative cache with exponential backoff around an issuer's key source: after a failed fetch, every
 * lookup fails at once without touching the network until the backoff ends, so a flood of tokens
 * costs the issuer at most one fetch per interval. Concurrent lookups share one in-flight fetch
 * (jose's pending reload, and the discovery promise below).
 */
function withFailureBackoff(
  issuer: string,
  keys: JWTVerifyGetKey,
  options: RemoteKeysOptions,
): JWTVerifyGetKey {
  const base = options.failureBackoffMs ?? 5_000;
  let failures = 0;
  let retryAt = 0;
  return async (header, token) => {
    const wait = retryAt - Date.now();
    if (wait > 0) throw new IssuerUnavailableError(issuer, wait);
    try {
      const key = await keys(header, token);
      failures = 0;
      return key;
    } catch (error) {
      if (isKeyMismatch(error)) throw error;
      // lookups that shared one failed fetch count it once
      if (retryAt <= Date.now()) {
        failures = Math.min(failures + 1, 7);
        retryAt = Date.now() + base * 2 ** (failures - 1);
      }
      throw new IssuerUnavailableError(issuer, retryAt - Date.now(), error);
    }
  };
}

export const GOOGLE_ISSUER = "https://accounts.google.com";
export const GOOGLE_JWKS_URI = "https://www.googleapis.com/oauth2/v3/certs";

// jose caches the JWKS and refetches on an unknown kid, at most once per cooldown.
function remoteKeys(uri: string, options: RemoteKeysOptions): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(uri), {
    cooldownDuration: options.cooldownMs ?? 10_000,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: 5_000,
  });
}

/** Google ID tokens (domain notes: issuer accounts.google.com, principal in `email`). */
export function createGoogleIssuer(
  options: RemoteKeysOptions & { jwksUri?: string; issuer?: string } = {},
): TrustedIssuer {
  const issuer = options.issuer ?? GOOGLE_ISSUER;
  return {
    issuer,
    principalClaim: "email",
    keys: withFailureBackoff(issuer, remoteKeys(options.jwksUri ?? GOOGLE_JWKS_URI, options), options),
  };
}

/**
 * A Kubernetes cluster issuer: the JWKS address comes from its OIDC discovery document
 * (OpenID Connect Discovery 1.0 §4), fetched on first use and again after a failure.
 */
export function createDiscoveryIssuer(issuer: string, options: RemoteKeysOptions = {}): TrustedIssuer {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    const response = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`OIDC discovery of ${issuer} answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== issuer) throw new Error(`OIDC discovery of ${issuer} names another issuer`);
    if (typeof document.jwks_uri !== "string") throw new Error(`OIDC discovery of ${issuer} has no jwks_uri`);
    return remoteKeys(document.jwks_uri, options);
  };
  return {
    issuer,
    principalClaim: "sub",
    keys: withFailureBackoff(
      issuer,
      async (header, token) => {
        keys ??= discover();
        try {
          return await (await keys)(header, token);
        } catch (error) {
          // a failed discovery is forgotten, so the first lookup after the backoff retries it
          if (
            !(await keys.then(
              () => true,
              () => false,
            ))
          )
            keys = undefined;
          throw error;
        }
      },
      options,
    ),
  };
}
