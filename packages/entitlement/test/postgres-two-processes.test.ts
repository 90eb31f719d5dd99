import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { exportPrivateKeyPem, generateSigningKey } from "@svc/core";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { mintWithBin, type SpawnedService, spawnService } from "./spawn-service.ts";

describe("two service processes sharing one PostgreSQL", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-entitlement-pg2-"));
  const adminToken = "two-process-admin-token-0123456789";
  const publicUrl = "http://entitlement.test";
  let postgres: TestPostgres;
  let databaseUrl: string;
  const services: SpawnedService[] = [];

  before(async () => {
    postgres = await startTestPostgres();
    databaseUrl = await postgres.createDatabase("two_proc");
    const keyFile = join(dataDir, "signing-key.pem");
    writeFileSync(keyFile, exportPrivateKeyPem(generateSigningKey()), { mode: 0o600 });
    const env = {
      SVC_DATABASE_URL: databaseUrl,
      SVC_ADMIN_TOKENS: adminToken,
      SVC_SIGNING_KEY_FILE: keyFile,
      SVC_TRUSTED_ISSUERS: "dev",
      SVC_PUBLIC_URL: publicUrl,
      SVC_DATA_DIR: dataDir,
      SVC_PG_POOL_MAX: "20",
      SVC_LOG_LEVEL: "warn",
    };
    // sequential start: the second also runs the (already applied) migrations
    services.push(await spawnService(env));
    services.push(await spawnService(env));
  });
  after(async () => {
    for (const service of services) service.child.kill("SIGTERM");
    await Promise.all(services.map((service) => service.exited));
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("200 concurrent consumes of distinct run_ids against a balance of 50 across both: exactly 50 succeed", async () => {
    const principal = "shared@example.com";
    const token = await mintWithBin([
      "--principal",
      principal,
      "--audience",
      publicUrl,
      "--data-dir",
      dataDir,
    ]);
    const [a, b] = services as [SpawnedService, SpawnedService];
    const grant = await fetch(`${a.url}/api/entitlement/issue`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-admin-token": adminToken },
      body: JSON.stringify({ principal, runs: 50 }),
    });
    assert.equal(grant.status, 200);
    const consume = (url: string, runId: string) =>
      fetch(`${url}/api/entitlement/consume`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          run_id: runId,
          project_id: "p",
          mode: "standard",
          module_id: "computational",
        }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => consume(index % 2 === 0 ? a.url : b.url, `run_pg2_${index}`)),
    );
    const statuses = results.map((result) => result.status);
    assert.equal(statuses.filter((status) => status === 200).length, 50);
    assert.equal(statuses.filter((status) => status === 402).length, 150);

    // the same run_id hammered on both processes: one charge, identical answers
    await fetch(`${a.url}/api/entitlement/issue`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-admin-token": adminToken },
      body: JSON.stringify({ principal, runs: 1 }),
    });
    const twins = await Promise.all(
      Array.from({ length: 100 }, (_, index) => consume(index % 2 === 0 ? a.url : b.url, "run_pg2_twin")),
    );
    for (const twin of twins) assert.deepEqual(twin, twins[0]);
    assert.equal(twins[0]?.status, 200);

    const store = await PostgresLedgerStore.open(databaseUrl);
    try {
      assert.equal(await store.getBalance(principal, "standard"), 0);
      const entries = await store.listLedger(principal);
      assert.equal(entries.filter((entry) => entry.kind === "consume").length, 51);
      assert.equal(
        entries.reduce((sum, entry) => sum + entry.delta, 0),
        0,
        "the ledger sums to zero left",
      );
    } finally {
      await store.close();
    }
  });
});
