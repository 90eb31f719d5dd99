import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { assertLogMatchesAnswers, sealStorm } from "./seal-storm.ts";
import { sharedPostgresServices } from "./shared-postgres-services.ts";
import { grantRuns, mintDevTokenFor, type SpawnedService, spawnService } from "./spawn-service.ts";

/** Seals without their issued leaf, or whose revocation and revoked leaf disagree, read straight from the tables. */
async function orphanSeals(databaseUrl: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT s.seal_id, s.revoked FROM seals s
         LEFT JOIN log_leaves i ON i.seal_id = s.seal_id AND i.event = 'issued'
         LEFT JOIN log_leaves r ON r.seal_id = s.seal_id AND r.event = 'revoked'
       WHERE i.leaf_index IS NULL OR s.revoked <> (r.leaf_index IS NOT NULL)`,
    );
    const gaps = await client.query(
      `SELECT (SELECT count(*) FROM log_leaves) AS leaves,
              (SELECT coalesce(max(leaf_index), -1) + 1 FROM log_leaves) AS next_index,
              (SELECT size FROM log_head WHERE id = 1) AS head`,
    );
    const row = gaps.rows[0] as { leaves: string; next_index: string; head: string };
    assert.equal(Number(row.next_index), Number(row.leaves), "leaves are numbered without a gap");
    assert.equal(Number(row.head), Number(row.leaves), "the log head counts every stored leaf");
    return result.rows;
  } finally {
    await client.end();
  }
}

// issue 38 Done when: the PostgreSQL twin of the SQLite crash test (issue 30 item 1). Two service
// processes share one database; both are killed with SIGKILL mid-storm, so transactions are cut at
// every stage. The tables are read before any service starts again: a service's start-up backfills
// seals without leaves (seals issued before the log existed), which would hide a torn commit.
describe("kill -9 of both services during a storm of seals and revocations (PostgreSQL)", {
  timeout: 180_000,
}, () => {
  const shared = sharedPostgresServices("seal_storm");

  it("leaves every seal and revocation with its leaf, every answered seal logged, and a consistent tree", async () => {
    const principal = "pg-seal-storm@example.com";
    const [a, b] = shared.services as [SpawnedService, SpawnedService];
    await grantRuns(a.url, shared.adminToken, principal, 100_000);
    const token = await mintDevTokenFor(principal, shared.publicUrl, shared.dataDir);

    let stop = false;
    const storm = sealStorm(
      [a.url, b.url],
      { token, adminToken: shared.adminToken, runPrefix: "run_pg_storm" },
      () => stop,
    );
    // let the storm reach every stage on both processes, then cut both at an arbitrary instant
    await new Promise((resolve) => setTimeout(resolve, 3000));
    a.child.kill("SIGKILL");
    b.child.kill("SIGKILL");
    await Promise.all([a.exited, b.exited]);
    stop = true;
    const answered = await storm;
    assert.ok(answered.size > 5, `the storm got going (${answered.size} seals answered)`);

    assert.deepEqual(
      await orphanSeals(shared.databaseUrl),
      [],
      "no seal without its leaf, no revocation without its leaf",
    );

    // a fresh process starts on the crashed database and reports ready
    const restarted = await spawnService({
      SVC_DATABASE_URL: shared.databaseUrl,
      SVC_ADMIN_TOKENS: shared.adminToken,
      SVC_TRUSTED_ISSUERS: "dev",
      SVC_PUBLIC_URL: shared.publicUrl,
      SVC_DATA_DIR: shared.dataDir,
      SVC_SIGNING_KEY_FILE: `${shared.dataDir}/signing-key.pem`,
      SVC_LOG_LEVEL: "warn",
    });
    shared.services.push(restarted);
    assert.equal((await fetch(`${restarted.url}/api/ready`)).status, 200);

    const store = await PostgresLedgerStore.open(shared.databaseUrl);
    try {
      await assertLogMatchesAnswers(store, answered);
    } finally {
      await store.close();
    }
  });
});
