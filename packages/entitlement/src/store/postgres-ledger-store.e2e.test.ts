import { startTestPostgres, type TestPostgres } from "@svc/testing";
import pg from "pg";
import { describeLedgerStoreContract } from "./ledger-store-contract.ts";
import { PostgresLedgerStore } from "./postgres-ledger-store.ts";

let server: TestPostgres | undefined;
let url = "";

describeLedgerStoreContract("postgres", {
  async open() {
    server = await startTestPostgres();
    url = await server.createDatabase("ledger");
    return PostgresLedgerStore.open(url, { poolMax: 20 });
  },
  async exec(sql) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  },
  async dispose() {
    await server?.stop();
  },
});
