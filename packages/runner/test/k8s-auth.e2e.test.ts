import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type OidcIssuerDouble, startOidcIssuerDouble } from "@svc/testing";
import { startTestEntitlement, type TestEntitlement } from "./support/entitlement-harness.ts";
import { runArgs, runCli, stageDemo } from "./support/run-cli.ts";

// The `k8s` auth mode end to end: a projected service-account token from a cluster issuer
// (here an OIDC issuer double on loopback) read from SVC_K8S_TOKEN_FILE, verified by the real
// entitlement service through OIDC discovery, principal = `sub`.
const PRINCIPAL = "system:serviceaccount:svc-audit:svc-runner";
let issuer: OidcIssuerDouble;
let service: TestEntitlement;
let scratch: string;

before(async () => {
  issuer = await startOidcIssuerDouble();
  service = await startTestEntitlement({ SVC_TRUSTED_ISSUERS: `dev,${issuer.issuer}` });
  scratch = await mkdtemp(join(tmpdir(), "svc-k8s-token-"));
});

after(async () => {
  await service?.close();
  await issuer?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function runWithTokenFile(runId: string, tokenFile: string) {
  const staged = await stageDemo();
  const result = await runCli(runArgs({ runId, staged, entitlementUrl: service.url, authMode: "k8s" }), {
    SVC_K8S_TOKEN_FILE: tokenFile,
  });
  return { ...result, runDir: join(staged.outputRoot, runId) };
}

test("a projected service-account token from a trusted cluster issuer runs and seals for its sub", async () => {
  await service.grant(PRINCIPAL, 1);
  const tokenFile = join(scratch, "token");
  await writeFile(tokenFile, `${await issuer.mintToken({ audience: service.url, subject: PRINCIPAL })}\n`);
  const run = await runWithTokenFile("run_k8s_ok", tokenFile);
  assert.equal(run.code, 0, run.stderr);
  const seal = JSON.parse(await readFile(join(run.runDir, "seal", "seal.json"), "utf8"));
  assert.equal(seal.principal, PRINCIPAL);
});

test("a token minted for another audience is refused with exit 3 before any analysis", async () => {
  const tokenFile = join(scratch, "token-wrong-aud");
  await writeFile(
    tokenFile,
    await issuer.mintToken({ audience: "https://elsewhere.example", subject: PRINCIPAL }),
  );
  const run = await runWithTokenFile("run_k8s_aud", tokenFile);
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /401/);
  await assert.rejects(readFile(join(run.runDir, "results", "summary.json")));
});

test("a missing token file exits with one line naming the file", async () => {
  const run = await runWithTokenFile("run_k8s_missing", join(scratch, "absent"));
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /absent/);
});
