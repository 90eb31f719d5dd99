import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { balanceResponseSchema, ledgerResponseSchema, principalsResponseSchema } from "@svc/core";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import type { LedgerStore } from "../src/store/ledger-store.ts";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { startTestService, type TestService } from "./app-harness.ts";

function describeAccountEndpoints(name: string, openStore: () => Promise<LedgerStore | undefined>) {
  describe(`balance, principals and ledger over HTTP (${name})`, () => {
    let svc: TestService;
    before(async () => {
      const store = await openStore();
      svc = await startTestService(store ? { store } : {});
    });
    after(() => svc.close());

    const grant = (principal: string, runs: number, mode: "standard" | "deep") =>
      svc.request("/api/entitlement/issue", {
        body: { principal, runs, mode, reason: "test" },
        headers: { "x-svc-admin-token": svc.adminToken },
      });

    it("GET /api/entitlement/balance answers the caller's runs by mode, and 401 without a token", async () => {
      await grant("alice@example.com", 3, "standard");
      await grant("alice@example.com", 1, "deep");
      const token = await svc.tokenFor("alice@example.com");
      const answer = await svc.request("/api/entitlement/balance", { token });
      assert.equal(answer.status, 200);
      assert.deepEqual(balanceResponseSchema.parse(answer.body), {
        principal: "alice@example.com",
        balances: { standard: 3, deep: 1 },
      });
      const stranger = await svc.request("/api/entitlement/balance", {
        token: await svc.tokenFor("nobody@x"),
      });
      assert.deepEqual(stranger.body.balances, { standard: 0, deep: 0 });
      const anonymous = await svc.request("/api/entitlement/balance");
      assert.equal(anonymous.status, 401);
    });

    it("GET /api/admin/principals pages every principal's balances; 403 without the admin token", async () => {
      for (const who of ["p1@x", "p2@x", "p3@x"]) await grant(who, 2, "standard");
      const admin = { "x-svc-admin-token": svc.adminToken };
      const seen: string[] = [];
      let after = "";
      for (let pages = 0; pages < 10; pages++) {
        const query = after ? `?limit=2&after=${encodeURIComponent(after)}` : "?limit=2";
        const answer = await svc.request(`/api/admin/principals${query}`, { headers: admin });
        assert.equal(answer.status, 200);
        const page = principalsResponseSchema.parse(answer.body);
        seen.push(...page.principals.map((entry) => entry.principal));
        if (page.next_after === null) break;
        after = page.next_after;
      }
      assert.deepEqual(seen, ["alice@example.com", "p1@x", "p2@x", "p3@x"]);
      const denied = await svc.request("/api/admin/principals");
      assert.equal(denied.status, 403);
      const bad = await svc.request("/api/admin/principals?limit=5000", { headers: admin });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "REQUEST_INVALID");
      assert.match(bad.body.error.message, /field limit/);
    });

    it("GET /api/admin/ledger pages one principal's lines newest last, resuming after an id", async () => {
      const admin = { "x-svc-admin-token": svc.adminToken };
      const first = ledgerResponseSchema.parse(
        (await svc.request("/api/admin/ledger?principal=alice%40example.com&limit=1", { headers: admin }))
          .body,
      );
      assert.equal(first.entries.length, 1);
      assert.equal(first.entries[0]?.mode, "standard");
      assert.equal(first.entries[0]?.delta, 3);
      assert.equal(first.next_after, first.entries[0]?.id);
      const rest = ledgerResponseSchema.parse(
        (
          await svc.request(`/api/admin/ledger?principal=alice%40example.com&after=${first.next_after}`, {
            headers: admin,
          })
        ).body,
      );
      assert.deepEqual(
        rest.entries.map((entry) => [entry.kind, entry.mode, entry.delta]),
        [["grant", "deep", 1]],
      );
      assert.equal(rest.next_after, null);
      const all = ledgerResponseSchema.parse(
        (await svc.request("/api/admin/ledger", { headers: admin })).body,
      );
      const ids = all.entries.map((entry) => entry.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      const bad = await svc.request("/api/admin/ledger?after=-1", { headers: admin });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /field after/);
    });
  });
}

describeAccountEndpoints("sqlite", async () => undefined);

let postgres: TestPostgres | undefined;
describeAccountEndpoints("postgres", async () => {
  postgres = await startTestPostgres();
  return PostgresLedgerStore.open(await postgres.createDatabase("accounts"));
});
after(async () => {
  await postgres?.stop();
});
