import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, describe, it } from "node:test";
import { parseLogEntry, sha256Hex } from "@svc/core";
import { SqliteLedgerStore } from "./sqlite-ledger-store.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.ts";

// issue 30 item 1: a ledger from before the log (schema version 2) gets a leaf for each of its
// seals, and for each revocation, when a version with the log opens it; no seal stays unlogged.
describe("opening a ledger from before the seal log", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-ledger-backfill-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("appends the old seals' issued and revoked leaves, oldest first, once", async () => {
    const file = join(dir, "ledger.sqlite");
    const db = new DatabaseSync(file);
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= 2)) {
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(
        migration.version,
        migration.name,
        "2026-01-01T00:00:00Z",
      );
    }
    db.exec(
      "INSERT INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, actor, reason, created_at) VALUES ('grant', 'a', 'standard', 2, 2, NULL, 'x', 'x', 'x')",
    );
    const seals = [
      { id: "seal_00000000000000000000000000000002", run: "run_b", at: "2026-01-02T00:00:00Z", revoked: 1 },
      { id: "seal_00000000000000000000000000000001", run: "run_a", at: "2026-01-01T00:00:00Z", revoked: 0 },
    ];
    for (const seal of seals) {
      db.prepare(
        "INSERT INTO runs (run_id, principal, project_id, mode, module_id, state, consumed_at, ledger_entry_id, runs_remaining_after) VALUES (?, 'a', 'p', 'standard', 'm', 'completed', ?, 1, 1)",
      ).run(seal.run, seal.at);
      const payload = { seal_id: seal.id, run_id: seal.run, key_id: "ed25519:00", issued_at: seal.at };
      const bundle = { seal_id: seal.id, payload, seal_json: JSON.stringify(payload) };
      db.prepare(
        "INSERT INTO seals (seal_id, run_id, principal, mode, key_id, issued_at, bundle_json, revoked, revoked_at) VALUES (?, ?, 'a', 'standard', 'ed25519:00', ?, ?, ?, ?)",
      ).run(
        seal.id,
        seal.run,
        seal.at,
        JSON.stringify(bundle),
        seal.revoked,
        seal.revoked ? "2026-01-03T00:00:00Z" : null,
      );
    }
    db.close();

    for (let opening = 0; opening < 2; opening += 1) {
      const store = SqliteLedgerStore.open(file);
      try {
        assert.equal(await store.logSize(), 3, "two issued leaves and one revoked leaf, appended once");
        const leaves = (await store.logEntries(0, 10)).map((leaf) => parseLogEntry(Buffer.from(leaf.entry)));
        assert.deepEqual(
          leaves.map((leaf) => [leaf?.event, leaf?.seal_id, leaf?.time]),
          [
            ["issued", seals[1]?.id, "2026-01-01T00:00:00Z"],
            ["issued", seals[0]?.id, "2026-01-02T00:00:00Z"],
            ["revoked", seals[0]?.id, "2026-01-03T00:00:00Z"],
          ],
        );
        const payload = {
          seal_id: seals[1]?.id,
          run_id: "run_a",
          key_id: "ed25519:00",
          issued_at: "2026-01-01T00:00:00Z",
        };
        assert.equal(leaves[0]?.payload_sha256, sha256Hex(JSON.stringify(payload)));
      } finally {
        await store.close();
      }
    }
  });
});
