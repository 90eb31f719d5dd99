import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { sharedPostgresServices } from "./shared-postgres-services.ts";
import { grantRuns, mintDevTokenFor } from "./spawn-service.ts";

// issue 16: "1 run granted became 20 sealed runs". Through HTTP on two processes sharing one
// PostgreSQL, with every step raced across both, one purchased run yields at most two sealed runs.
describe("rerun chain on two service processes sharing one PostgreSQL", { timeout: 120_000 }, () => {
  const shared = sharedPostgresServices("rerun_chain");

  it("grant 1 run: no more than 2 sealed runs, with redemptions and consumes raced across both processes", async () => {
    const principal = "chain@example.com";
    const token = await mintDevTokenFor(principal, shared.publicUrl, shared.dataDir);
    const urls = shared.services.map((service) => service.url);
    const at = (index: number) => urls[index % urls.length] as string;
    const post = async (url: string, path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads fields of the answers
      return { status: response.status, body: (await response.json()) as any };
    };
    const redeem = async (url: string, svg: string) => {
      const response = await fetch(`${url}/api/entitlement/redeem_seal_once`, {
        method: "POST",
        headers: { "content-type": "image/svg+xml", authorization: `Bearer ${token}` },
        body: svg,
      });
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    };
    const params = (runId: string) => ({ run_id: runId, project_id: "chain_project" });
    /** Finishes a consumed run and returns its seal. */
    const seal = async (runId: string, index: number) => {
      const started = await post(at(index), "/api/entitlement/run_start", {
        ...params(runId),
        category_id: "ligand_only",
        inputs_sha256: "a".repeat(64),
        image: { reference: "registry/runner:1.0.0", digest: null },
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const done = await post(at(index + 1), "/api/entitlement/run_complete", {
        run_id: runId,
        outputs_sha256: "b".repeat(64),
        run_manifest_sha256: "c".repeat(64),
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      return done.body.seal;
    };
    /** Races 12 consumes of distinct run ids across both processes; returns the run ids charged. */
    const raceConsumes = async (round: number) => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          post(at(index), "/api/entitlement/consume", params(`run_chain_${round}_${index}`)),
        ),
      );
      for (const answer of answers)
        assert.ok([200, 402].includes(answer.status), JSON.stringify(answer.body));
      return answers.filter((answer) => answer.status === 200).map((answer) => answer.body.run_id as string);
    };

    await grantRuns(at(0), shared.adminToken, principal, 1);

    const sealedRuns: string[] = [];
    let svgs: string[] = [];
    for (let round = 0; round < 4; round++) {
      const charged = await raceConsumes(round);
      assert.ok(charged.length <= 1, `round ${round}: ${charged.length} runs charged`);
      for (const runId of charged) {
        const bundle = await seal(runId, round);
        sealedRuns.push(runId);
        svgs.push(bundle.seal_svg);
      }
      // every seal obtained so far, redeemed 6 times on both processes at once
      const redemptions = await Promise.all(
        svgs.flatMap((svg) => Array.from({ length: 6 }, (_, index) => redeem(at(index), svg))),
      );
      for (const answer of redemptions)
        assert.ok([200, 409, 422].includes(answer.status), JSON.stringify(answer.body));
      assert.ok(redemptions.filter((answer) => answer.status === 200).length <= 1);
      svgs = svgs.slice(-1);
    }
    assert.equal(sealedRuns.length, 2, "one purchased run, exactly two sealed runs");

    const store = await PostgresLedgerStore.open(shared.databaseUrl);
    try {
      assert.equal(await store.getBalance(principal, "standard"), 0);
      const entries = await store.listLedger(principal);
      assert.equal(entries.filter((entry) => entry.kind === "consume").length, 2);
      assert.equal(entries.filter((entry) => entry.kind === "redemption_grant").length, 1);
      const rerun = await store.getRun(sealedRuns[1] as string);
      assert.equal(rerun?.funding, "rerun");
    } finally {
      await store.close();
    }
  });
});
