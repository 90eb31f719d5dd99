import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { startTestService, type TestService } from "./app-harness.ts";

// issue 16 item 5: /metrics counted 5 consumed runs for 1 (replays), and on PostgreSQL 4 seals
// issued for 1 (concurrent run_complete retries). Each event once; replays on their own counter.

/** The value of one sample of the Prometheus text, 0 when absent. */
async function sample(svc: TestService, name: string, labels: string): Promise<number> {
  const text = await fetch(`${svc.url}/metrics`).then((response) => response.text());
  const line = text.split("\n").find((row) => row.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

async function exerciseOneRun(svc: TestService): Promise<void> {
  const admin = { "x-svc-admin-token": svc.adminToken };
  const grant = { principal: "metered", runs: 1, idempotency_key: "order-1" };
  for (let index = 0; index < 3; index++)
    assert.equal((await svc.request("/api/entitlement/issue", { body: grant, headers: admin })).status, 200);
  const token = await svc.tokenFor("metered");
  const run = { run_id: "run_metered", project_id: "p" };
  const consumes = await Promise.all(
    Array.from({ length: 5 }, () => svc.request("/api/entitlement/consume", { token, body: run })),
  );
  assert.ok(consumes.every((answer) => answer.status === 200));
  await svc.request("/api/entitlement/run_start", {
    token,
    body: {
      ...run,
      category_id: "ligand_only",
      inputs_sha256: "a".repeat(64),
      image: { reference: "registry/runner:1.0.0", digest: null },
    },
  });
  const completes = await Promise.all(
    Array.from({ length: 4 }, () =>
      svc.request("/api/entitlement/run_complete", {
        token,
        body: { run_id: run.run_id, outputs_sha256: "b".repeat(64), run_manifest_sha256: "c".repeat(64) },
      }),
    ),
  );
  assert.ok(completes.every((answer) => answer.status === 200));
}

describe("metrics count each event once, replays apart, on SQLite and PostgreSQL", {
  timeout: 120_000,
}, () => {
  let postgres: TestPostgres;
  const services: [string, TestService][] = [];

  before(async () => {
    postgres = await startTestPostgres();
    const store = await PostgresLedgerStore.open(await postgres.createDatabase("metrics"));
    services.push(["sqlite", await startTestService()], ["postgres", await startTestService({ store })]);
  });
  after(async () => {
    for (const [, svc] of services) await svc.close();
    await postgres?.stop();
  });

  it("1 grant replayed twice, 1 run consumed 5 times, 1 seal completed 4 times: each counted once", async () => {
    for (const [name, svc] of services) {
      await exerciseOneRun(svc);
      const counted = {
        granted: await sample(svc, "svc_entitlement_runs_granted_total", 'mode="standard",kind="grant"'),
        consumed: await sample(
          svc,
          "svc_entitlement_runs_consumed_total",
          'mode="standard",funding="purchased"',
        ),
        sealed: await sample(svc, "svc_entitlement_seals_issued_total", 'mode="standard"'),
        grantReplays: await sample(svc, "svc_entitlement_replays_total", 'operation="grant"'),
        consumeReplays: await sample(svc, "svc_entitlement_replays_total", 'operation="consume"'),
        completeReplays: await sample(svc, "svc_entitlement_replays_total", 'operation="run_complete"'),
      };
      assert.deepEqual(
        counted,
        { granted: 1, consumed: 1, sealed: 1, grantReplays: 2, consumeReplays: 4, completeReplays: 3 },
        name,
      );
    }
  });
});
