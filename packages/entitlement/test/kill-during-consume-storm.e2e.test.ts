import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { SqliteLedgerStore } from "../src/store/sqlite-ledger-store.ts";
import { consumeRun, spawnGrantedService, spawnService } from "./spawn-service.ts";

describe("kill -9 during a consume storm (SQLite)", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-entitlement-kill-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps every consume answered 200, charges none twice, and balance = grants - consumes after restart", async () => {
    const principal = "storm@example.com";
    const { service: first, token } = await spawnGrantedService(dataDir, principal, 100_000);

    const answered = new Map<string, { ledger_entry_id: number }>();
    let stop = false;
    let sequence = 0;
    const worker = async () => {
      while (!stop) {
        const runId = `run_storm_${sequence++}`;
        try {
          const response = await consumeRun(first.url, token, runId);
          if (response.status === 200)
            answered.set(runId, (await response.json()) as { ledger_entry_id: number });
          else await response.body?.cancel();
        } catch {
          // connection dropped by the kill: the answer was never received, so it proves nothing
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    first.child.kill("SIGKILL");
    await first.exited;
    stop = true;
    await Promise.all(workers);
    assert.ok(answered.size > 20, `the storm got going (${answered.size} answered)`);

    // restart on the same data dir: the file must open (WAL recovery) and serve again
    const second = await spawnService({ SVC_DATA_DIR: dataDir });
    const ready = await fetch(`${second.url}/api/ready`);
    assert.equal(ready.status, 200);
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0);

    const store = SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
    try {
      const entries = await store.listLedger(principal);
      const consumes = entries.filter((entry) => entry.kind === "consume");
      const byRun = new Map(consumes.map((entry) => [entry.run_id, entry]));
      assert.equal(byRun.size, consumes.length, "no run_id charged twice");
      for (const [runId, answer] of answered) {
        assert.equal(byRun.get(runId)?.id, answer.ledger_entry_id, `${runId} answered 200 is in the ledger`);
      }
      const grants = entries
        .filter((entry) => entry.kind === "grant")
        .reduce((sum, entry) => sum + entry.delta, 0);
      assert.equal(await store.getBalance(principal, "standard"), grants - consumes.length);
    } finally {
      await store.close();
    }
  });
});
