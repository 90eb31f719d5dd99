import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { spawnService } from "./spawn-service.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;

// issue 16 item 6: ledger.sqlite and its -wal/-shm were world-readable, and a pre-created data
// directory with 0755 was left so. The real bin, with the process's usual umask 022.
describe("ledger files 0600 and data directory 0700", { timeout: 60_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), "svc-entitlement-perms-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("creates the ledger and its -wal/-shm 0600 and tightens a looser data directory and ledger, saying so", async () => {
    const dataDir = join(root, "data");
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const previous = process.umask(0o022);
    const service = await spawnService({ SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: "warn" });
    process.umask(previous);
    try {
      const adminToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
      const grant = await fetch(`${service.url}/api/entitlement/issue`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-admin-token": adminToken },
        body: JSON.stringify({ principal: "perm@example.com", runs: 1 }),
      });
      assert.equal(grant.status, 200);
      assert.equal(modeOf(dataDir), 0o700);
      for (const file of [
        "ledger.sqlite",
        "ledger.sqlite-wal",
        "ledger.sqlite-shm",
        "admin-token",
        "signing-key.pem",
      ])
        assert.equal(modeOf(join(dataDir, file)).toString(8), "600", file);
      assert.match(service.output(), /"mode_was":"755".*"msg":"tightened data directory permissions"/);
    } finally {
      service.child.kill("SIGTERM");
      await service.exited;
    }
  });

  it("tightens an existing world-readable ledger file at start", async () => {
    const dataDir = join(root, "existing");
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, "ledger.sqlite"), "", { mode: 0o644 });
    chmodSync(join(dataDir, "ledger.sqlite"), 0o644);
    const service = await spawnService({ SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: "warn" });
    try {
      assert.equal(modeOf(join(dataDir, "ledger.sqlite")).toString(8), "600");
    } finally {
      service.child.kill("SIGTERM");
      await service.exited;
    }
  });
});
