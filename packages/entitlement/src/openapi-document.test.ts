import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { generateSigningKey, toTrustedKey } from "@svc/core";
import { createApp } from "./app.ts";
import { SqliteLedgerStore } from "./store/sqlite-ledger-store.ts";

const CHECKED_IN = fileURLToPath(new URL("../openapi.json", import.meta.url));

/** The OpenAPI document the app serves at /openapi.json. */
async function renderOpenApi(): Promise<string> {
  const store = SqliteLedgerStore.open(":memory:");
  const signingKey = generateSigningKey();
  const app = await createApp({
    store,
    verifyAuthorization: async () => ({ principal: "x", issuer: "x" }),
    adminTokens: ["unused-admin-token-xxxxxxxx"],
    signingKey,
    trustedKeys: [toTrustedKey(signingKey.publicKey)],
    issuerName: () => "test",
    verifyUrl: null,
  });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await store.close();
  return document;
}

describe("openapi.json", () => {
  it("is checked in and equals what the app serves (UPDATE_OPENAPI=1 rewrites it)", async () => {
    const document = await renderOpenApi();
    if (process.env.UPDATE_OPENAPI === "1") writeFileSync(CHECKED_IN, document);
    assert.equal(readFileSync(CHECKED_IN, "utf8"), document, "run UPDATE_OPENAPI=1 node --test this file");
  });

  it("documents every endpoint of the contract", async () => {
    const paths = Object.keys(
      (JSON.parse(await renderOpenApi()) as { paths: Record<string, unknown> }).paths,
    );
    for (const path of [
      "/api/entitlement/check",
      "/api/entitlement/consume",
      "/api/entitlement/run_start",
      "/api/entitlement/run_complete",
      "/api/seal/verify",
      "/api/entitlement/redeem_seal_once",
      "/api/entitlement/issue",
      "/api/health",
      "/api/ready",
      "/api/seal/keys",
      "/api/entitlement/balance",
      "/api/admin/principals",
      "/api/admin/ledger",
    ])
      assert.ok(paths.includes(path), path);
  });
});
