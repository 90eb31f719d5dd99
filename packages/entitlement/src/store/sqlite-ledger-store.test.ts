import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describeLedgerStoreContract } from "./ledger-store-contract.ts";
import { SqliteLedgerStore } from "./sqlite-ledger-store.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-ledger-sqlite-"));
const file = join(dir, "ledger.sqlite");

describeLedgerStoreContract("sqlite", {
  async open() {
    return SqliteLedgerStore.open(file);
  },
  async exec(sql) {
    const db = new DatabaseSync(file);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
  },
  async dispose() {
    rmSync(dir, { recursive: true, force: true });
  },
});
