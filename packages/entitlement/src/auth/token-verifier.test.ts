import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type OidcIssuerDouble, startOidcIssuerDouble } from "@svc/testing";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import { createDevIssuer, loadOrCreateDevIssuerKey, mintDevToken } from "./dev-issuer.ts";
import { createTokenVerifier, type VerifyAuthorization } from "./token-verifier.ts";
import { createDiscoveryIssuer, createGoogleIssuer, type TrustedIssuer } from "./trusted-issuer.ts";

const audience = "http://svc.test";

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isEntitlementError(error), String(error));
    assert.equal(error.code, code);
    return true;
  });
}

describe("token verifier", () => {
  let k8s: OidcIssuerDouble;
  let google: OidcIssuerDouble;
  let stranger: OidcIssuerDouble;
  let verify: VerifyAuthorization;
  let issuers: TrustedIssuer[];

  before(async () => {
    [k8s, google, stranger] = await Promise.all([
      startOidcIssuerDouble(),
      startOidcIssuerDouble(),
      startOidcIssuerDouble(),
    ]);
    issuers = [
      createDiscoveryIssuer(k8s.issuer, { cooldownMs: 0 }),
      createGoogleIssuer({ issuer: google.issuer, jwksUri: google.jwksUri }),
    ];
    verify = createTokenVerifier({
      issuers: () => issuers,
      audience: () => audience,
      clockSkewSec: 30,
      policy: { suspended: ["suspended-sa"] },
    });
  });
  after(async () => {
    await Promise.all([k8s.close(), google.close(), stranger.close()]);
  });

  it("accepts a Kubernetes token found by OIDC discovery; the principal is sub", async () => {
    const token = await k8s.mintToken({ audience, subject: "system:serviceaccount:ns:runner" });
    assert.deepEqual(await verify(`Bearer ${token}`), {
      principal: "system:serviceaccount:ns:runner",
      issuer: k8s.issuer,
    });
  });

  it("accepts a Google token; the principal is the verified email", async () => {
    const token = await google.mintToken({ audience, email: "sa@p.iam.gserviceaccount.com" });
    assert.equal((await verify(`Bearer ${token}`)).principal, "sa@p.iam.gserviceaccount.com");
    const unverified = await google.mintToken({ audience, email: "x@y.z", emailVerified: false });
    await rejectsWith(verify(`Bearer ${unverified}`), "AUTH_INVALID");
  });

  it("answers 401 codes for missing, malformed, expired, wrong audience and untrusted tokens", async () => {
    await rejectsWith(verify(undefined), "AUTH_MISSING");
    await rejectsWith(verify("Basic abc"), "AUTH_MALFORMED");
    await rejectsWith(verify("Bearer not-a-jwt"), "AUTH_MALFORMED");
    await rejectsWith(
      verify(`Bearer ${await k8s.mintToken({ audience, expiresInSec: -120 })}`),
      "AUTH_EXPIRED",
    );
    await rejectsWith(
      verify(`Bearer ${await k8s.mintToken({ audience: "http://other" })}`),
      "AUTH_WRONG_AUDIENCE",
    );
    await rejectsWith(verify(`Bearer ${await stranger.mintToken({ audience })}`), "AUTH_UNTRUSTED_ISSUER");
  });

  it("tolerates bounded clock skew only", async () => {
    await verify(`Bearer ${await k8s.mintToken({ audience, expiresInSec: -10 })}`);
    await rejectsWith(
      verify(`Bearer ${await k8s.mintToken({ audience, expiresInSec: -31 })}`),
      "AUTH_EXPIRED",
    );
  });

  it("refuses alg none, HS256 signed with the public key, and a tampered signature or payload", async () => {
    await rejectsWith(verify(`Bearer ${k8s.mintUnsignedToken({ audience })}`), "AUTH_INVALID");
    await rejectsWith(verify(`Bearer ${await k8s.mintHs256WithPublicKey({ audience })}`), "AUTH_INVALID");
    const token = await k8s.mintToken({ audience, subject: "alice" });
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    await rejectsWith(verify(`Bearer ${header}.${payload}.${flipped}`), "AUTH_INVALID");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: "admin" }),
    ).toString("base64url");
    await rejectsWith(verify(`Bearer ${header}.${forged}.${signature}`), "AUTH_INVALID");
  });

  it("caches the JWKS and refetches it when a token names an unknown key id", async () => {
    await verify(`Bearer ${await k8s.mintToken({ audience })}`);
    const fetches = k8s.jwksFetches;
    await verify(`Bearer ${await k8s.mintToken({ audience })}`);
    assert.equal(k8s.jwksFetches, fetches, "known kid: served from cache");
    await k8s.rotateKey();
    await verify(`Bearer ${await k8s.mintToken({ audience })}`);
    assert.equal(k8s.jwksFetches, fetches + 1, "unknown kid: one refetch");
  });

  it("remembers a verified token only until its exp", async () => {
    const strict = createTokenVerifier({ issuers: () => issuers, audience: () => audience, clockSkewSec: 0 });
    const token = await k8s.mintToken({ audience, subject: "short-lived", expiresInSec: 1 });
    assert.equal((await strict(`Bearer ${token}`)).principal, "short-lived");
    assert.equal((await strict(`Bearer ${token}`)).principal, "short-lived");
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await rejectsWith(strict(`Bearer ${token}`), "AUTH_EXPIRED");
  });

  it("answers 403 for a suspended principal", async () => {
    await rejectsWith(
      verify(`Bearer ${await k8s.mintToken({ audience, subject: "suspended-sa" })}`),
      "PRINCIPAL_FORBIDDEN",
    );
  });

  it("verifies dev issuer tokens through the same path, with a key persisted 0600 in the data dir", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-dev-issuer-"));
    try {
      const key = await loadOrCreateDevIssuerKey(dataDir);
      assert.deepEqual(await loadOrCreateDevIssuerKey(dataDir), key);
      assert.equal(statSync(join(dataDir, "dev-issuer-key.json")).mode & 0o777, 0o600);
      const issuer = "http://127.0.0.1:9/dev-issuer";
      const devVerify = createTokenVerifier({
        issuers: () => [createDevIssuer(key, issuer)],
        audience: () => audience,
        clockSkewSec: 30,
      });
      const token = await mintDevToken({ key, issuer, audience, principal: "dev@example.com" });
      assert.equal((await devVerify(`Bearer ${token}`)).principal, "dev@example.com");
      const stale = await mintDevToken({ key, issuer, audience, principal: "dev", ttlSec: -60 });
      await rejectsWith(devVerify(`Bearer ${stale}`), "AUTH_EXPIRED");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
