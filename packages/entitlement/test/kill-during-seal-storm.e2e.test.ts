import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, describe, it } from "node:test";
import { SqliteLedgerStore } from "../src/store/sqlite-ledger-store.ts";
import { assertLogMatchesAnswers, sealStorm } from "./seal-storm.ts";
import { spawnGrantedService, spawnService } from "./spawn-service.ts";

// issue 30 item 1: a seal and its log leaf commit together, so a kill -9 at any instant leaves
// no seal without its leaf, no revocation without its leaf, and a tree whose stored hashes are
// the RFC 9162 hashes of its leaves.
describe("kill -9 during a storm of seals and revocations (SQLite)", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-entitlement-kill-seal-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("leaves every seal and revocation with its leaf, every answered seal logged, and a consistent tree", async () => {
    const principal = "seal-storm@example.com";
    const { service: first, adminToken, token } = await spawnGrantedService(dataDir, principal, 100_000);
    let stop = false;
    const storm = sealStorm([first.url], { token, adminToken, runPrefix: "run_seal_storm" }, () => stop);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    first.child.kill("SIGKILL");
    await first.exited;
    stop = true;
    const answered = await storm;
    assert.ok(answered.size > 5, `the storm got going (${answered.size} seals answered)`);

    const db = new DatabaseSync(join(dataDir, "ledger.sqlite"), { readOnly: true });
    try {
      const orphans = db
        .prepare(
          `SELECT s.seal_id, s.revoked FROM seals s
             LEFT JOIN log_leaves i ON i.seal_id = s.seal_id AND i.event = 'issued'
             LEFT JOIN log_leaves r ON r.seal_id = s.seal_id AND r.event = 'revoked'
           WHERE i.leaf_index IS NULL OR (s.revoked = 1) != (r.leaf_index IS NOT NULL)`,
        )
        .all();
      assert.deepEqual(orphans, [], "no seal without its leaf, no revocation without its leaf");
      const leafCount = Number((db.prepare("SELECT count(*) AS n FROM log_leaves").get() as { n: number }).n);
      const maxIndex = Number(
        (db.prepare("SELECT coalesce(max(leaf_index), -1) AS m FROM log_leaves").get() as { m: number }).m,
      );
      assert.equal(maxIndex, leafCount - 1, "leaves are numbered without a gap");
    } finally {
      db.close();
    }

    // after the tables are read: a start-up backfills seals without leaves (seals older than the
    // log), which would hide a torn commit
    const second = await spawnService({ SVC_DATA_DIR: dataDir });
    assert.equal((await fetch(`${second.url}/api/ready`)).status, 200);
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0);

    const store = SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
    try {
      await assertLogMatchesAnswers(store, answered);
    } finally {
      await store.close();
    }
  });
});
