import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import type { TrustedIssuer } from "./trusted-issuer.ts";

const KEY_FILE = "dev-issuer-key.json";
const ALG = "ES256";

/** The built-in dev issuer's key pair, persisted in the data dir so tokens survive restarts. */
export interface DevIssuerKey {
  readonly kid: string;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

/** Reads `<dataDir>/dev-issuer-key.json`, creating it (mode 0600) on first use. */
export async function loadOrCreateDevIssuerKey(dataDir: string): Promise<DevIssuerKey> {
  const file = join(dataDir, KEY_FILE);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DevIssuerKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  const key: DevIssuerKey = {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: ALG },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" },
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // `wx`: when the service and mint-dev-token race, one key wins and both read it
    writeFileSync(file, JSON.stringify(key), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(readFileSync(file, "utf8")) as DevIssuerKey;
  }
  return key;
}

/** The dev issuer's id: `<public url>/dev-issuer` (contract, "Dev identity"). */
export function devIssuerUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, "")}/dev-issuer`;
}

/** Trust the dev issuer, verified through the same path as any other issuer (no skip switch). */
export function createDevIssuer(key: DevIssuerKey, issuer: string): TrustedIssuer {
  return { issuer, principalClaim: "sub", keys: createLocalJWKSet({ keys: [key.publicJwk] }) };
}

export interface MintDevTokenOptions {
  readonly key: DevIssuerKey;
  readonly issuer: string;
  readonly audience: string;
  readonly principal: string;
  readonly ttlSec?: number;
}

/** Mints a dev ID token whose `sub` is the principal. */
export async function mintDevToken(options: MintDevTokenOptions): Promise<string> {
  const privateKey = await importJWK(options.key.privateJwk, ALG);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALG, kid: options.key.kid, typ: "JWT" })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(options.principal)
    .setIssuedAt()
    .setExpirationTime(`${options.ttlSec ?? 3600}s`)
    .sign(privateKey);
}

/** OIDC discovery document of the dev issuer. */
export function devDiscoveryDocument(issuer: string): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: `${issuer}/jwks.json`,
    id_token_signing_alg_values_supported: [ALG],
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
  };
}
