import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import { createTokenVerifier } from "./token-verifier.ts";
import { createDiscoveryIssuer, createGoogleIssuer, type TrustedIssuer } from "./trusted-issuer.ts";

const audience = "http://svc.test";

/** An issuer whose every endpoint answers 500, counting what it was asked (issue 16). */
async function startFailingIssuer(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits++;
    response.writeHead(500).end("down");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isEntitlementError(error), String(error));
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe("token verification under attack (issue 16 item 3)", () => {
  const keyPair = generateKeyPair("ES256", { extractable: true });
  const localIssuer = "https://local-issuer.test";
  let sign: (claims: JWTPayload) => Promise<string>;
  let local: TrustedIssuer;

  before(async () => {
    const { privateKey, publicKey } = await keyPair;
    local = {
      issuer: localIssuer,
      principalClaim: "sub",
      keys: createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] }),
    };
    sign = (claims) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: localIssuer,
        sub: "alice",
        aud: audience,
        iat: now,
        exp: now + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .sign(privateKey);
    };
  });

  for (const failing of ["discovery", "jwks"] as const) {
    it(`fetches a failing issuer's ${failing} at most once per backoff interval, whatever the request rate`, async () => {
      const down = await startFailingIssuer();
      after(() => down.close());
      const issuer =
        failing === "discovery"
          ? createDiscoveryIssuer(down.url, { failureBackoffMs: 1000 })
          : createGoogleIssuer({
              issuer: down.url,
              jwksUri: `${down.url}/jwks.json`,
              failureBackoffMs: 1000,
            });
      const verify = createTokenVerifier({
        issuers: () => [issuer],
        audience: () => audience,
        clockSkewSec: 30,
      });
      const forged = (index: number) =>
        sign({ iss: down.url, sub: `forged-${index}`, email: "x@y.z", email_verified: true });
      // minted first, so the 60 requests fall well inside one backoff interval: 30 at once, 30 in a row
      const tokens = await Promise.all(Array.from({ length: 60 }, (_, index) => forged(index)));
      const burst = await Promise.allSettled(tokens.slice(0, 30).map((token) => verify(`Bearer ${token}`)));
      assert.ok(burst.every((result) => result.status === "rejected"));
      for (const token of tokens.slice(30))
        await rejectsWith(verify(`Bearer ${token}`), "AUTH_INVALID", new RegExp(down.url));
      assert.equal(down.hits(), 1, "one fetch for 60 forged tokens");
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await rejectsWith(verify(`Bearer ${await forged(999)}`), "AUTH_INVALID", /next attempt in 2 s/);
      assert.equal(down.hits(), 2, "one retry after the backoff, whose failure doubles it");
      await rejectsWith(verify(`Bearer ${await forged(1000)}`), "AUTH_INVALID");
      assert.equal(down.hits(), 2);
    });
  }

  it("refuses iat beyond the clock skew and accepts it within", async () => {
    const verify = createTokenVerifier({
      issuers: () => [local],
      audience: () => audience,
      clockSkewSec: 60,
    });
    const now = Math.floor(Date.now() / 1000);
    const yearAhead = await sign({ iat: now + 365 * 86_400, exp: now + 365 * 86_400 + 300 });
    await rejectsWith(
      verify(`Bearer ${yearAhead}`),
      "AUTH_INVALID",
      /claim iat .*in the future.*local-issuer/,
    );
    await rejectsWith(verify(`Bearer ${await sign({ iat: now + 120 })}`), "AUTH_INVALID", /iat/);
    assert.equal((await verify(`Bearer ${await sign({ iat: now + 30 })}`)).principal, "alice");
  });

  it("accepts a multi-audience token only when azp is this service", async () => {
    const verify = createTokenVerifier({
      issuers: () => [local],
      audience: () => audience,
      clockSkewSec: 30,
    });
    await rejectsWith(
      verify(`Bearer ${await sign({ aud: [audience, "https://other.example"] })}`),
      "AUTH_WRONG_AUDIENCE",
      /2 audiences.*azp/,
    );
    await rejectsWith(
      verify(
        `Bearer ${await sign({ aud: [audience, "https://other.example"], azp: "https://other.example" })}`,
      ),
      "AUTH_WRONG_AUDIENCE",
    );
    const authorized = await sign({ aud: [audience, "https://other.example"], azp: audience });
    assert.equal((await verify(`Bearer ${authorized}`)).principal, "alice");
    assert.equal((await verify(`Bearer ${await sign({ aud: [audience] })}`)).principal, "alice");
    assert.equal((await verify(`Bearer ${await sign({ sub: "bob" })}`)).principal, "bob");
  });

  it("names the issuer it checked in 401 answers", async () => {
    const verify = createTokenVerifier({ issuers: () => [local], audience: () => audience, clockSkewSec: 0 });
    const now = Math.floor(Date.now() / 1000);
    await rejectsWith(
      verify(`Bearer ${await sign({ exp: now - 10 })}`),
      "AUTH_EXPIRED",
      /local-issuer\.test/,
    );
    await rejectsWith(
      verify(`Bearer ${await sign({ aud: "https://x" })}`),
      "AUTH_WRONG_AUDIENCE",
      /local-issuer/,
    );
    await rejectsWith(
      verify(`Bearer ${await sign({ iss: "https://evil.example" })}`),
      "AUTH_UNTRUSTED_ISSUER",
      /evil\.example.*not among the trusted issuers \(https:\/\/local-issuer\.test\)/,
    );
  });
});
