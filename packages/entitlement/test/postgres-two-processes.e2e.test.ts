import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { sharedPostgresServices } from "./shared-postgres-services.ts";
import { consumeRun, grantRuns, mintDevTokenFor, type SpawnedService } from "./spawn-service.ts";

describe("two service processes sharing one PostgreSQL", { timeout: 120_000 }, () => {
  const shared = sharedPostgresServices("two_proc", { SVC_PG_POOL_MAX: "20" });

  it("200 concurrent consumes of distinct run_ids against a balance of 50 across both: exactly 50 succeed", async () => {
    const principal = "shared@example.com";
    const token = await mintDevTokenFor(principal, shared.publicUrl, shared.dataDir);
    const [a, b] = shared.services as [SpawnedService, SpawnedService];
    await grantRuns(a.url, shared.adminToken, principal, 50);
    const consume = (url: string, runId: string) =>
      consumeRun(url, token, runId).then(async (response) => ({
        status: response.status,
        body: await response.json(),
      }));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => consume(index % 2 === 0 ? a.url : b.url, `run_pg2_${index}`)),
    );
    const statuses = results.map((result) => result.status);
    assert.equal(statuses.filter((status) => status === 200).length, 50);
    assert.equal(statuses.filter((status) => status === 402).length, 150);

    // the same run_id hammered on both processes: one charge, identical answers
    await grantRuns(a.url, shared.adminToken, principal, 1);
    const twins = await Promise.all(
      Array.from({ length: 100 }, (_, index) => consume(index % 2 === 0 ? a.url : b.url, "run_pg2_twin")),
    );
    for (const twin of twins) assert.deepEqual(twin, twins[0]);
    assert.equal(twins[0]?.status, 200);

    const store = await PostgresLedgerStore.open(shared.databaseUrl);
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
