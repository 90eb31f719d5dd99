import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunParams } from "@svc/core";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import type { ConsumeResult } from "../domain/ledger-types.ts";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import { assertLedgerBalances } from "./ledger-store-contract.ts";
import { PostgresLedgerStore } from "./postgres-ledger-store.ts";

// Group commit of consumes (issue 23 item 12): consumes issued in one turn of the event loop share
// one statement; each must still get exactly the answer it would get alone.

let counter = 0;
const runParams = (overrides: Partial<RunParams> = {}): RunParams => ({
  run_id: `batch_run_${counter++}`,
  project_id: "proj1",
  mode: "standard",
  module_id: "computational",
  ...overrides,
});

/** The code of an EntitlementError, "ok" for an answer, the error itself otherwise. */
async function outcome(promise: Promise<ConsumeResult>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (isEntitlementError(error)) return error.code;
    throw error;
  }
}

describe("PostgreSQL consume group commit", { timeout: 120_000 }, () => {
  let postgres: TestPostgres;
  let url: string;
  before(async () => {
    postgres = await startTestPostgres();
    url = await postgres.createDatabase("consume_batch");
  });
  after(async () => {
    await postgres.stop();
  });

  it("answers each consume of one turn as if alone: charge, 402, replay and 409 side by side", async () => {
    const store = await PostgresLedgerStore.open(url, { poolMax: 4 });
    try {
      await store.grantRuns({ principal: "rich", runs: 2, mode: "standard", actor: "test" });
      await store.grantRuns({ principal: "owner", runs: 5, mode: "standard", actor: "test" });
      const owned = runParams();
      const first = await store.consumeRun("owner", owned);
      // one synchronous burst: the batcher sees them all in the same turn
      const fresh = [runParams(), runParams(), runParams()];
      const answers = await Promise.all([
        outcome(store.consumeRun("rich", fresh[0] as RunParams)),
        outcome(store.consumeRun("broke", runParams())),
        outcome(store.consumeRun("owner", owned)),
        outcome(store.consumeRun("thief", owned)),
        outcome(store.consumeRun("rich", fresh[1] as RunParams)),
        outcome(store.consumeRun("rich", fresh[2] as RunParams)),
        outcome(store.consumeRun("owner", { ...owned, project_id: "elsewhere" })),
      ]);
      // the three consumes of "rich" against 2 runs: in arrival order, the third finds none left
      assert.deepEqual(answers, [
        "ok",
        "ENTITLEMENT_EXHAUSTED",
        "ok",
        "RUN_ID_CONFLICT",
        "ok",
        "ENTITLEMENT_EXHAUSTED",
        "RUN_ID_CONFLICT",
      ]);
      assert.deepEqual(await store.consumeRun("owner", owned), first);
      assert.equal(await store.getBalance("rich", "standard"), 0);
      assert.equal(await store.getBalance("owner", "standard"), 4);
      for (const principal of ["rich", "owner", "broke", "thief"])
        await assertLedgerBalances(store, principal);
    } finally {
      await store.close();
    }
  });

  it("fails only the consume the database refuses, not the others of its batch", async () => {
    const store = await PostgresLedgerStore.open(url, { poolMax: 4 });
    try {
      await store.grantRuns({ principal: "neighbour", runs: 1, mode: "standard", actor: "test" });
      // PostgreSQL refuses a NUL in text (22021) for the whole statement; the HTTP layer never lets
      // one through, but a batch must not make one consume's error its neighbours'
      const [bad, good] = await Promise.allSettled([
        store.consumeRun("nul\u0000principal", runParams()),
        store.consumeRun("neighbour", runParams()),
      ]);
      assert.equal(bad.status, "rejected");
      assert.equal(good.status, "fulfilled");
      assert.equal(await store.getBalance("neighbour", "standard"), 0);
    } finally {
      await store.close();
    }
  });

  it("answers the consumes queued before close instead of failing them on a closed pool", async () => {
    const store = await PostgresLedgerStore.open(url, { poolMax: 4 });
    await store.grantRuns({ principal: "closing", runs: 3, mode: "standard", actor: "test" });
    const queued = [store.consumeRun("closing", runParams()), store.consumeRun("closing", runParams())];
    await store.close();
    const answers = await Promise.all(queued);
    assert.deepEqual(
      answers.map((answer) => answer.runs_remaining),
      [2, 1],
    );
  });

  it("two stores on one database consuming 12 principals in opposite orders charge each run exactly once", async () => {
    // two pools stand for two service processes: their batches hold the same balance rows, taken
    // in opposite arrival orders; the rows are locked in one order, so neither waits for a deadlock
    const principals = Array.from({ length: 12 }, (_, index) => `both_${String(index).padStart(2, "0")}`);
    const a = await PostgresLedgerStore.open(url, { poolMax: 4 });
    const b = await PostgresLedgerStore.open(url, { poolMax: 4 });
    try {
      for (const principal of principals)
        await a.grantRuns({ principal, runs: 15, mode: "standard", actor: "test" });
      const storm = (store: PostgresLedgerStore, order: string[]) =>
        Promise.all(
          Array.from({ length: 10 }, async () => {
            const results: [string, string][] = [];
            for (const principal of order)
              results.push([principal, await outcome(store.consumeRun(principal, runParams()))]);
            return results;
          }),
        );
      const results = (await Promise.all([storm(a, principals), storm(b, [...principals].reverse())])).flat(
        2,
      );
      for (const principal of principals) {
        const mine = results.filter(([who]) => who === principal);
        assert.equal(mine.filter(([, answer]) => answer === "ok").length, 15, principal);
        assert.equal(mine.filter(([, answer]) => answer === "ENTITLEMENT_EXHAUSTED").length, 5, principal);
        assert.equal(await a.getBalance(principal, "standard"), 0);
        await assertLedgerBalances(a, principal);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
