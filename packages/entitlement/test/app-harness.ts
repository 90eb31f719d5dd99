import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { generateSigningKey, type SigningKey, type TrustedKey, toTrustedKey } from "@svc/core";
import { createLoggerOptions } from "@svc/http-edge";
import { type OidcIssuerDouble, startOidcIssuerDouble } from "@svc/testing";
import type { FastifyInstance } from "fastify";
import { createApp } from "../src/app.ts";
import { createDevIssuer, devIssuerUrl, loadOrCreateDevIssuerKey } from "../src/auth/dev-issuer.ts";
import { createTokenVerifier } from "../src/auth/token-verifier.ts";
import { createDiscoveryIssuer, createGoogleIssuer } from "../src/auth/trusted-issuer.ts";
import type { SealVerifier } from "../src/seal/seal-verify-pool.ts";
import type { LedgerStore } from "../src/store/ledger-store.ts";
import { SqliteLedgerStore } from "../src/store/sqlite-ledger-store.ts";

/** A running service on loopback with a real SQLite ledger (unless given a store) and OIDC doubles. */
export interface TestService {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly store: LedgerStore;
  readonly signingKey: SigningKey;
  readonly adminToken: string;
  readonly k8s: OidcIssuerDouble;
  readonly google: OidcIssuerDouble;
  /** Every JSON log line the service wrote. */
  readonly logs: string[];
  /** A Kubernetes-issuer token for `principal` with the right audience. */
  tokenFor(principal: string): Promise<string>;
  request(
    path: string,
    init?: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    // biome-ignore lint/suspicious/noExplicitAny: tests assert response bodies field by field
    body: any;
    headers: Headers;
  }>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  readonly store?: LedgerStore;
  readonly sealVerifier?: SealVerifier;
  /** Builds the verifier from the service's trusted keys (e.g. a 1-worker pool); closed with the service. */
  readonly sealVerifierFor?: (trustedKeys: readonly TrustedKey[]) => SealVerifier;
  /** Keys trusted beside the signing key, as SVC_TRUSTED_KEYS_FILE adds them (e.g. a retired key). */
  readonly extraTrustedKeys?: readonly TrustedKey[];
  /** SVC_RELEASED_RUNNER_DIGESTS: published at GET /api/seal/released-runners. */
  readonly releasedRunnerDigests?: readonly string[];
  /** SVC_REQUEST_TIMEOUT_MS: the longest any request may take to arrive. */
  readonly requestTimeoutMs?: number;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-entitlement-app-"));
  const store = options.store ?? SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
  const [k8s, google] = await Promise.all([startOidcIssuerDouble(), startOidcIssuerDouble()]);
  const signingKey = generateSigningKey();
  const adminToken = `adm_${Math.random().toString(36).slice(2)}${Date.now()}`;
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  let url = "";
  const devKey = await loadOrCreateDevIssuerKey(dataDir);
  const issuers = [
    createDiscoveryIssuer(k8s.issuer, { cooldownMs: 0 }),
    createGoogleIssuer({ issuer: google.issuer, jwksUri: google.jwksUri }),
  ];
  const trustedKeys = [toTrustedKey(signingKey.publicKey), ...(options.extraTrustedKeys ?? [])];
  const ownVerifier = options.sealVerifierFor?.(trustedKeys);
  const sealVerifier = options.sealVerifier ?? ownVerifier;
  const app = await createApp({
    store,
    verifyAuthorization: createTokenVerifier({
      issuers: () => [...issuers, createDevIssuer(devKey, devIssuerUrl(url))],
      audience: () => url,
      clockSkewSec: 30,
    }),
    adminTokens: ["old-rotated-token-value", adminToken],
    signingKey,
    trustedKeys,
    issuerName: () => url,
    verifyUrl: null,
    devIssuer: { key: devKey, issuer: () => devIssuerUrl(url) },
    ...(sealVerifier ? { sealVerifier } : {}),
    ...(options.releasedRunnerDigests ? { releasedRunnerDigests: options.releasedRunnerDigests } : {}),
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    logger: createLoggerOptions("info", stream),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return {
    url,
    app,
    store,
    signingKey,
    adminToken,
    k8s,
    google,
    logs,
    tokenFor: (principal) => k8s.mintToken({ audience: url, subject: principal }),
    async request(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        headers["content-type"] ??= "application/json";
        body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      }
      const response = await fetch(`${url}${path}`, {
        method: init.method ?? (body ? "POST" : "GET"),
        headers,
        body,
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await app.close();
      await ownVerifier?.close();
      await store.close();
      await Promise.all([k8s.close(), google.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A started service whose `principal` holds `runs` runs, with a Kubernetes-issuer token for it. */
export async function startServiceWithRuns(
  principal: string,
  runs: number,
  options: TestServiceOptions = {},
): Promise<{ svc: TestService; token: string }> {
  const svc = await startTestService(options);
  const issued = await svc.request("/api/entitlement/issue", {
    body: { principal, runs },
    headers: { "x-svc-admin-token": svc.adminToken },
  });
  assert.equal(issued.status, 200, JSON.stringify(issued.body));
  return { svc, token: await svc.tokenFor(principal) };
}

/** A test run's ids as consume and run_start take them. */
export interface TestRun {
  readonly run_id: string;
  readonly project_id: string;
  readonly mode?: string;
  readonly module_id?: string;
}

/** What run_start records beyond the run's ids: its inputs hash and the runner image digest. */
export interface TestRunStart {
  readonly inputs_sha256?: string;
  readonly digest?: string | null;
}

/** consume → run_start for `run` (a ligand-only run of the registry runner image); both must answer 200. */
export async function startTestRun(
  svc: TestService,
  token: string,
  run: TestRun,
  start: TestRunStart = {},
): Promise<void> {
  const consumed = await svc.request("/api/entitlement/consume", { token, body: run });
  assert.equal(consumed.status, 200, JSON.stringify(consumed.body));
  const started = await svc.request("/api/entitlement/run_start", {
    token,
    body: {
      ...run,
      category_id: "ligand_only",
      inputs_sha256: start.inputs_sha256 ?? "a".repeat(64),
      image: { reference: "registry/runner:1.0.0", digest: start.digest ?? null },
    },
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
}

/**
 * consume → run_start → run_complete for `run` with fixed output and manifest hashes; every call
 * must answer 200. Returns run_complete's answer: the seal, its log proof, its provenance.
 */
export async function sealTestRun(
  svc: TestService,
  token: string,
  run: TestRun,
  start: TestRunStart = {},
  /** More run_complete fields, e.g. a claim_strength (issue 37 item 3). */
  complete: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests assert response bodies field by field
): Promise<any> {
  await startTestRun(svc, token, run, start);
  const done = await svc.request("/api/entitlement/run_complete", {
    token,
    body: {
      run_id: run.run_id,
      outputs_sha256: "b".repeat(64),
      run_manifest_sha256: "c".repeat(64),
      ...complete,
    },
  });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return done.body;
}
