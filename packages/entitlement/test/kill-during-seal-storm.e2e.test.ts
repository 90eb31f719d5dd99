import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, describe, it } from "node:test";
import {
  foldSubtreeHashes,
  hashChildren,
  hashLeaf,
  largestPowerOfTwoBelow,
  parseLogEntry,
  subtreesOfRange,
} from "@svc/core";
import { SqliteLedgerStore } from "../src/store/sqlite-ledger-store.ts";
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
    const post = (path: string, body: unknown, headers: Record<string, string>) =>
      fetch(`${first.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });

    const answered = new Map<string, number>();
    let stop = false;
    let sequence = 0;
    const auth = { authorization: `Bearer ${token}` };
    const worker = async () => {
      while (!stop) {
        const run_id = `run_seal_storm_${sequence++}`;
        try {
          const run = { run_id, project_id: "p", mode: "standard", module_id: "computational" };
          if ((await post("/api/entitlement/consume", run, auth)).status !== 200) continue;
          const start = {
            ...run,
            category_id: "c",
            inputs_sha256: "a".repeat(64),
            image: { reference: "r", digest: null },
          };
          if ((await post("/api/entitlement/run_start", start, auth)).status !== 200) continue;
          const done = await post(
            "/api/entitlement/run_complete",
            { run_id, outputs_sha256: "b".repeat(64), run_manifest_sha256: "c".repeat(64) },
            auth,
          );
          if (done.status !== 200) continue;
          const body = (await done.json()) as { seal: { seal_id: string }; log: { leaf_index: number } };
          answered.set(body.seal.seal_id, body.log.leaf_index);
          if (sequence % 3 === 0)
            await post(
              "/api/seal/revoke",
              { seal_id: body.seal.seal_id, reason: "storm" },
              { "x-svc-admin-token": adminToken },
            );
        } catch {
          // the kill dropped the connection: an unanswered call proves nothing
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    first.child.kill("SIGKILL");
    await first.exited;
    stop = true;
    await Promise.all(workers);
    assert.ok(answered.size > 5, `the storm got going (${answered.size} seals answered)`);

    const second = await spawnService({ SVC_DATA_DIR: dataDir });
    assert.equal((await fetch(`${second.url}/api/ready`)).status, 200);
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0);

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

    const store = SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
    try {
      const size = await store.logSize();
      const leaves: Buffer[] = [];
      for (let start = 0; start < size; start += 1000)
        for (const leaf of await store.logEntries(start, 1000)) {
          assert.ok(parseLogEntry(Buffer.from(leaf.entry)), `leaf ${leaf.leaf_index} is a canonical entry`);
          leaves.push(hashLeaf(Buffer.from(leaf.entry)));
        }
      for (const [sealId, index] of answered)
        assert.equal(
          await store.logLeafIndex(sealId, "issued"),
          index,
          `${sealId} answered 200 is logged at ${index}`,
        );
      const mth = (a: number, b: number): Buffer =>
        b - a === 1
          ? (leaves[a] as Buffer)
          : hashChildren(
              mth(a, a + largestPowerOfTwoBelow(b - a)),
              mth(a + largestPowerOfTwoBelow(b - a), b),
            );
      const stored = foldSubtreeHashes(
        await store.logSubtreeHashes(subtreesOfRange({ start: 0, end: size })),
      );
      assert.ok(stored.equals(mth(0, size)), "the stored root is the RFC 9162 root of the leaves");
    } finally {
      await store.close();
    }
  });
});
