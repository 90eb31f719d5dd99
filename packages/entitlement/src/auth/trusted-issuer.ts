import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";

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
  return {
    issuer: options.issuer ?? GOOGLE_ISSUER,
    principalClaim: "email",
    keys: remoteKeys(options.jwksUri ?? GOOGLE_JWKS_URI, options),
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
    keys: async (header, token) => {
      keys ??= discover();
      try {
        return await (await keys)(header, token);
      } catch (error) {
        // a failed discovery is not cached; the next token retries it
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
  };
}
