import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import {
  foldSubtreeHashes,
  hashChildren,
  hashLeaf,
  inclusionProofRanges,
  largestPowerOfTwoBelow,
  parseLogEntry,
  type RunParams,
  type RunStartFields,
  subtreesOfRange,
  verifyInclusion,
} from "@svc/core";
import type { RedeemScope, SealBundleRecord } from "../domain/ledger-types.ts";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import type { IssueSeal, LedgerStore } from "./ledger-store.ts";

/** Opens a fresh, empty store for the contract suite, and disposes of it. */
export interface StoreHarness {
  open(): Promise<LedgerStore>;
  /** Runs raw SQL on a separate connection to the same database (to prove what the schema refuses). */
  exec(sql: string): Promise<void>;
  dispose(): Promise<void>;
}

const hex = (char: string) => char.repeat(64);
let counter = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}`;

function params(overrides: Partial<RunParams> = {}): RunParams {
  return {
    run_id: unique("run"),
    project_id: "proj1",
    mode: "standard",
    module_id: "computational",
    ...overrides,
  };
}

function startFields(run: RunParams, overrides: Partial<RunStartFields> = {}): RunStartFields {
  return {
    ...run,
    category_id: "ligand_only",
    inputs_sha256: hex("a"),
    image: { reference: "registry/runner:1.0.0", digest: null },
    ...overrides,
  };
}

/** A stand-in signer: the store only persists and replays what it is given. */
const fakeIssueSeal: IssueSeal = (run, fields, issuedAt) => {
  const sealId = `seal_${randomBytes(16).toString("hex")}`;
  const payload = {
    seal_id: sealId,
    run_id: run.run_id,
    key_id: "ed25519:00000000000000000000000000000000",
    issued_at: issuedAt.toISOString(),
    outputs_sha256: fields.outputs_sha256,
  };
  return {
    seal_id: sealId,
    payload,
    seal_json: JSON.stringify(payload),
    seal_sig: "c2ln\n",
    seal_svg: `<svg issued="${issuedAt.toISOString()}"/>`,
    public_key_pem: "pem",
    key_id: "ed25519:00000000000000000000000000000000",
    verify_md: "# verify",
  } satisfies SealBundleRecord;
};

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isEntitlementError(error), `expected EntitlementError, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  });
}

/** Asserts the derived invariant: for every (principal, mode), balance = sum of ledger deltas. */
export async function assertLedgerBalances(store: LedgerStore, principal: string): Promise<void> {
  const entries = await store.listLedger(principal);
  for (const mode of ["standard", "deep"] as const) {
    const sum = entries
      .filter((entry) => entry.mode === mode)
      .reduce((total, entry) => total + entry.delta, 0);
    assert.equal(
      await store.getBalance(principal, mode),
      sum,
      `balance of ${principal}/${mode} equals ledger`,
    );
  }
}

/**
 * The one contract suite every LedgerStore implementation passes (ARCHITECTURE.md convention 3).
 */
export function describeLedgerStoreContract(name: string, harness: StoreHarness): void {
  describe(`LedgerStore contract: ${name}`, () => {
    let store: LedgerStore;
    const grant = (principal: string, runs: number, mode: "standard" | "deep" = "standard") =>
      store.grantRuns({ principal, runs, mode, actor: "test" });

    before(async () => {
      store = await harness.open();
    });
    after(async () => {
      await store.close();
      await harness.dispose();
    });

    it("grants runs per mode and records each grant in the ledger", async () => {
      const who = unique("alice");
      const first = await grant(who, 3);
      assert.equal(first.runs_remaining, 3);
      assert.equal(first.replayed, false);
      await grant(who, 2, "deep");
      assert.equal(await store.getBalance(who, "standard"), 3);
      assert.equal(await store.getBalance(who, "deep"), 2);
      const entries = await store.listLedger(who);
      assert.deepEqual(
        entries.map((entry) => [entry.kind, entry.mode, entry.delta, entry.actor]),
        [
          ["grant", "standard", 3, "test"],
          ["grant", "deep", 2, "test"],
        ],
      );
    });

    it("pages principals' balances in byte order and ledger lines oldest first, without gaps or repeats", async () => {
      const prefix = unique("page");
      const names = [`${prefix}_b@x`, `${prefix}_a@x`, `${prefix}_c@x`];
      for (const name of names)
        await store.grantRuns({ principal: name, mode: "standard", runs: 2, actor: "admin:t" });
      await store.grantRuns({ principal: names[0] ?? "", mode: "deep", runs: 1, actor: "admin:t" });
      const seen: { principal: string; balances: { standard: number; deep: number } }[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.listPrincipalBalances({ after, limit: 2 });
        assert.ok(page.length <= 2);
        seen.push(...page);
        if (page.length < 2) break;
        after = page.at(-1)?.principal;
      }
      const all = seen.map((entry) => entry.principal);
      assert.equal(new Set(all).size, all.length, "no principal repeats across pages");
      assert.deepEqual(
        [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        all,
        "byte order",
      );
      const ours = seen.filter((entry) => entry.principal.startsWith(prefix));
      assert.deepEqual(
        ours.map((entry) => [entry.principal, entry.balances]),
        [
          [`${prefix}_a@x`, { standard: 2, deep: 0 }],
          [`${prefix}_b@x`, { standard: 2, deep: 1 }],
          [`${prefix}_c@x`, { standard: 2, deep: 0 }],
        ],
      );
      const who = names[0] ?? "";
      const first = await store.listLedgerPage({ principal: who, limit: 1 });
      const rest = await store.listLedgerPage({ principal: who, afterId: first[0]?.id, limit: 10 });
      assert.deepEqual(
        [...first, ...rest].map((entry) => entry.mode),
        ["standard", "deep"],
        "oldest first, newest last",
      );
      assert.deepEqual([...first, ...rest], await store.listLedger(who));
      const global = await store.listLedgerPage({ afterId: first[0]?.id, limit: 1000 });
      assert.ok(global.every((entry) => entry.id > (first[0]?.id ?? 0)));
    });

    it("replays a grant with the same idempotency key and refuses the key for another grant", async () => {
      const who = unique("idem");
      const key = unique("key");
      const first = await store.grantRuns({
        principal: who,
        runs: 5,
        mode: "standard",
        idempotency_key: key,
        actor: "a",
      });
      const again = await store.grantRuns({
        principal: who,
        runs: 5,
        mode: "standard",
        idempotency_key: key,
        actor: "a",
      });
      assert.deepEqual(again, { ...first, replayed: true });
      assert.equal(await store.getBalance(who, "standard"), 5);
      await rejectsWith(
        store.grantRuns({ principal: who, runs: 6, mode: "standard", idempotency_key: key, actor: "a" }),
        "IDEMPOTENCY_KEY_CONFLICT",
      );
    });

    it("consumes one run, answers identically on retry and charges once", async () => {
      const who = unique("bob");
      await grant(who, 2);
      const run = params();
      const first = await store.consumeRun(who, run);
      assert.equal(first.runs_remaining, 1);
      assert.equal(first.principal, who);
      await grant(who, 1);
      const again = await store.consumeRun(who, run);
      assert.deepEqual(again, first);
      assert.equal(await store.getBalance(who, "standard"), 2);
      const consumes = (await store.listLedger(who)).filter((entry) => entry.kind === "consume");
      assert.equal(consumes.length, 1);
      assert.equal(consumes[0]?.run_id, run.run_id);
      await assertLedgerBalances(store, who);
    });

    it("answers 402 when no run is left for that mode, in check and consume", async () => {
      const who = unique("carol");
      await grant(who, 1, "deep");
      await rejectsWith(store.checkRun(who, params()), "ENTITLEMENT_EXHAUSTED");
      await rejectsWith(store.consumeRun(who, params()), "ENTITLEMENT_EXHAUSTED");
      const deep = params({ mode: "deep" });
      await store.consumeRun(who, deep);
      await rejectsWith(store.consumeRun(who, params({ mode: "deep" })), "ENTITLEMENT_EXHAUSTED");
      // the already consumed run stays available to its owner (check after consume)
      const check = await store.checkRun(who, deep);
      assert.equal(check.already_consumed, true);
      assert.equal(check.runs_remaining, 0);
      await assertLedgerBalances(store, who);
    });

    it("answers 409 for a run_id reused by another principal or with other parameters", async () => {
      const owner = unique("owner");
      const other = unique("other");
      await grant(owner, 5);
      await grant(other, 5);
      const run = params();
      await store.consumeRun(owner, run);
      await rejectsWith(store.consumeRun(other, run), "RUN_ID_CONFLICT");
      await rejectsWith(store.checkRun(other, run), "RUN_ID_CONFLICT");
      await rejectsWith(store.consumeRun(owner, { ...run, project_id: "elsewhere" }), "RUN_ID_CONFLICT");
      await rejectsWith(store.consumeRun(owner, { ...run, module_id: "other" }), "RUN_ID_CONFLICT");
      assert.equal(await store.getBalance(other, "standard"), 5);
      assert.equal(await store.getBalance(owner, "standard"), 4);
    });

    it("check has no side effects", async () => {
      const who = unique("dave");
      await grant(who, 1);
      const run = params();
      const check = await store.checkRun(who, run);
      assert.deepEqual(check, {
        run_id: run.run_id,
        principal: who,
        available: true,
        mode: "standard",
        runs_remaining: 1,
        already_consumed: false,
      });
      assert.equal(await store.getRun(run.run_id), null);
      assert.equal((await store.listLedger(who)).length, 1);
    });

    it("enforces the lifecycle order with 422 and replays or refuses repeated steps", async () => {
      const who = unique("erin");
      await grant(who, 1);
      const run = params();
      await rejectsWith(store.startRun(who, startFields(run)), "LIFECYCLE_OUT_OF_ORDER");
      await rejectsWith(
        store.completeRun(
          who,
          { run_id: run.run_id, outputs_sha256: hex("b"), run_manifest_sha256: hex("c") },
          fakeIssueSeal,
        ),
        "LIFECYCLE_OUT_OF_ORDER",
      );
      await store.consumeRun(who, run);
      await rejectsWith(
        store.completeRun(
          who,
          { run_id: run.run_id, outputs_sha256: hex("b"), run_manifest_sha256: hex("c") },
          fakeIssueSeal,
        ),
        "LIFECYCLE_OUT_OF_ORDER",
      );
      const started = await store.startRun(who, startFields(run));
      assert.equal(started.state, "started");
      assert.deepEqual(await store.startRun(who, startFields(run)), started);
      await rejectsWith(
        store.startRun(who, startFields(run, { inputs_sha256: hex("d") })),
        "RUN_START_CONFLICT",
      );
      await rejectsWith(store.startRun(who, startFields(run, { project_id: "x" })), "RUN_START_CONFLICT");
      await rejectsWith(store.startRun(unique("mallory"), startFields(run)), "RUN_ID_CONFLICT");

      const done = { run_id: run.run_id, outputs_sha256: hex("b"), run_manifest_sha256: hex("c") };
      const completed = await store.completeRun(who, done, fakeIssueSeal);
      assert.equal(completed.state, "completed");
      assert.deepEqual(
        await store.completeRun(who, done, fakeIssueSeal),
        completed,
        "retry returns the same seal",
      );
      await rejectsWith(
        store.completeRun(who, { ...done, outputs_sha256: hex("e") }, fakeIssueSeal),
        "RUN_COMPLETE_CONFLICT",
      );
      const stored = await store.getRun(run.run_id);
      assert.equal(stored?.state, "completed");
      assert.equal(stored?.seal_id, completed.seal.seal_id);
      assert.deepEqual(await store.findSeal(completed.seal.seal_id), {
        seal_id: completed.seal.seal_id,
        run_id: run.run_id,
        principal: who,
        project_id: run.project_id,
        mode: "standard",
        funding: "purchased",
        revoked: false,
        revoked_reason: null,
        revoked_at: null,
        seal_json: completed.seal.seal_json,
      });
    });

    /** consume → run_start → run_complete of a fresh run; returns the seal's id and the run's funding. */
    const sealedRun = async (who: string, run: RunParams) => {
      await store.consumeRun(who, run);
      await store.startRun(who, startFields(run));
      const { seal } = await store.completeRun(
        who,
        { run_id: run.run_id, outputs_sha256: hex("1"), run_manifest_sha256: hex("2") },
        fakeIssueSeal,
      );
      return { sealId: seal.seal_id, funding: (await store.getRun(run.run_id))?.funding };
    };
    const redeem = (principal: string | null, sealId: string, scope: RedeemScope = "issued_principal") =>
      store.redeemSeal({ seal_id: sealId, principal, scope, actor: principal ?? "admin:test" });

    it("redeems a seal once, by its issued principal, also under concurrent calls", async () => {
      const who = unique("frank");
      const auditor = unique("auditor");
      await grant(who, 1, "deep");
      const run = params({ mode: "deep" });
      const { sealId } = await sealedRun(who, run);
      const attempts = await Promise.allSettled(Array.from({ length: 20 }, () => redeem(who, sealId)));
      const ok = attempts.filter((attempt) => attempt.status === "fulfilled");
      assert.equal(ok.length, 1);
      for (const attempt of attempts) {
        if (attempt.status === "rejected")
          assert.equal((attempt.reason as { code: string }).code, "SEAL_ALREADY_REDEEMED");
      }
      assert.deepEqual((ok[0] as PromiseFulfilledResult<unknown>).value, {
        seal_id: sealId,
        principal: who,
        granted_runs: 1,
        mode: "deep",
        project_id: run.project_id,
        runs_remaining: 1,
      });
      await rejectsWith(redeem(auditor, sealId), "SEAL_NOT_YOURS");
      await rejectsWith(redeem(null, sealId), "SEAL_ALREADY_REDEEMED");
      assert.equal((await redeem(auditor, sealId, "any_principal")).principal, auditor, "spec-literal scope");
      await rejectsWith(redeem(who, "seal_ffffffffffffffffffffffffffffffff"), "SEAL_NOT_VERIFIED");
      assert.equal(await store.revokeSeal(sealId, "test"), true);
      const revoked = await store.findSeal(sealId);
      assert.equal(revoked?.revoked, true);
      assert.equal(revoked?.revoked_reason, "test");
      assert.match(revoked?.revoked_at ?? "", /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(await store.revokeSeal(sealId, "again"), true);
      assert.equal((await store.findSeal(sealId))?.revoked_reason, "test", "the first revocation is kept");
      await rejectsWith(redeem(unique("late"), sealId, "any_principal"), "SEAL_NOT_VERIFIED");
      await assertLedgerBalances(store, who);
      await assertLedgerBalances(store, auditor);
    });

    it("lets an admin redeem on the issued principal's behalf", async () => {
      const who = unique("behalf");
      await grant(who, 1);
      const { sealId } = await sealedRun(who, params());
      const redeemed = await redeem(null, sealId);
      assert.equal(redeemed.principal, who);
      const line = (await store.listLedger(who)).at(-1);
      assert.equal(line?.kind, "redemption_grant");
      assert.equal(line?.actor, "admin:test");
    });

    it("one purchased run yields at most two sealed runs: the rerun credit pays only its project, and its seal is not redeemable", async () => {
      const who = unique("chain");
      await grant(who, 1);
      const first = await sealedRun(who, params());
      assert.equal(first.funding, "purchased");
      const redeemed = await Promise.allSettled(Array.from({ length: 10 }, () => redeem(who, first.sealId)));
      assert.equal(redeemed.filter((result) => result.status === "fulfilled").length, 1);
      assert.equal(await store.getBalance(who, "standard"), 1, "the credit counts as a run left");
      await rejectsWith(store.consumeRun(who, params({ project_id: "other" })), "ENTITLEMENT_EXHAUSTED");
      await rejectsWith(store.consumeRun(who, params({ mode: "deep" })), "ENTITLEMENT_EXHAUSTED");
      // many runs race for the one credit: exactly one gets it
      const racers = await Promise.allSettled(
        Array.from({ length: 10 }, () => store.consumeRun(who, params())),
      );
      const won = racers.filter((result) => result.status === "fulfilled");
      assert.equal(won.length, 1);
      for (const result of racers)
        if (result.status === "rejected")
          assert.ok(isEntitlementError(result.reason, "ENTITLEMENT_EXHAUSTED"));
      const rerunId = (won[0] as PromiseFulfilledResult<{ run_id: string }>).value.run_id;
      const rerun = await store.getRun(rerunId);
      assert.equal(rerun?.funding, "rerun");
      assert.equal(rerun?.rerun_of, first.sealId);
      await store.startRun(who, startFields({ ...params(), run_id: rerunId }));
      const { seal } = await store.completeRun(
        who,
        { run_id: rerunId, outputs_sha256: hex("3"), run_manifest_sha256: hex("4") },
        fakeIssueSeal,
      );
      await rejectsWith(redeem(who, seal.seal_id), "SEAL_NOT_REDEEMABLE");
      await rejectsWith(redeem(null, seal.seal_id, "any_principal"), "SEAL_NOT_REDEEMABLE");
      await rejectsWith(redeem(who, first.sealId), "SEAL_ALREADY_REDEEMED");
      assert.equal(await store.getBalance(who, "standard"), 0);
      const runs = (await store.listLedger(who)).filter((entry) => entry.kind === "consume");
      assert.equal(runs.length, 2, "two sealed runs from one purchased run");
      await assertLedgerBalances(store, who);
    });

    it("keeps balances 64-bit: a grant past 2^31 runs succeeds", async () => {
      const who = unique("whale");
      await grant(who, 1);
      await harness.exec(`UPDATE balances SET runs_remaining = 2147483000 WHERE principal = '${who}'`);
      const result = await grant(who, 100_000);
      assert.equal(result.runs_remaining, 2_147_583_000);
      assert.equal(await store.getBalance(who, "standard"), 2_147_583_000);
      // the most a balance holds is 2^53 - 1 (exact in JSON): beyond it 400, and nothing changes
      await harness.exec(`UPDATE balances SET runs_remaining = 9007199254740981 WHERE principal = '${who}'`);
      await rejectsWith(grant(who, 100), "REQUEST_INVALID");
      assert.equal(await store.getBalance(who, "standard"), 9_007_199_254_740_981);
      assert.equal((await grant(who, 10)).runs_remaining, Number.MAX_SAFE_INTEGER);
    });

    it("200 concurrent consumes of distinct run_ids against a balance of 50: exactly 50 succeed", async () => {
      const who = unique("storm");
      await grant(who, 50);
      const results = await Promise.allSettled(
        Array.from({ length: 200 }, () => store.consumeRun(who, params())),
      );
      const ok = results.filter((result) => result.status === "fulfilled");
      const refused = results.filter(
        (result) =>
          result.status === "rejected" && isEntitlementError(result.reason, "ENTITLEMENT_EXHAUSTED"),
      );
      assert.equal(ok.length, 50);
      assert.equal(refused.length, 150);
      assert.equal(await store.getBalance(who, "standard"), 0);
      const entries = await store.listLedger(who);
      assert.equal(entries.filter((entry) => entry.kind === "consume").length, 50);
      await assertLedgerBalances(store, who);
    });

    it("100 concurrent identical consumes of one run_id: one charge, 100 identical answers", async () => {
      const who = unique("twin");
      await grant(who, 10);
      const run = params();
      const answers = await Promise.all(Array.from({ length: 100 }, () => store.consumeRun(who, run)));
      for (const answer of answers) assert.deepEqual(answer, answers[0]);
      assert.equal(await store.getBalance(who, "standard"), 9);
      assert.equal((await store.listLedger(who)).filter((entry) => entry.kind === "consume").length, 1);
    });

    it("100 concurrent identical consumes of one run_id with one run left: all replay, none is 402", async () => {
      // the losers wait for the winner's balance lock and then see no run left: they must still
      // find the winner's run and replay it, not answer 402
      const who = unique("last");
      await grant(who, 1);
      // open every pooled connection first, so the consumes really run side by side
      await Promise.all(Array.from({ length: 20 }, () => store.getBalance(who, "standard")));
      const run = params();
      const answers = await Promise.all(Array.from({ length: 100 }, () => store.consumeRun(who, run)));
      for (const answer of answers) assert.deepEqual(answer, answers[0]);
      assert.equal(await store.getBalance(who, "standard"), 0);
    });

    it("concurrent consumes of one run_id by two principals charge exactly one of them", async () => {
      const a = unique("racer_a");
      const b = unique("racer_b");
      await grant(a, 5);
      await grant(b, 5);
      const run = params();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, index) => store.consumeRun(index % 2 === 0 ? a : b, run)),
      );
      const winners = new Set(
        results.flatMap((result) => (result.status === "fulfilled" ? [result.value.principal] : [])),
      );
      assert.equal(winners.size, 1);
      for (const result of results) {
        if (result.status === "rejected") assert.ok(isEntitlementError(result.reason, "RUN_ID_CONFLICT"));
      }
      assert.equal((await store.getBalance(a, "standard")) + (await store.getBalance(b, "standard")), 9);
    });

    it("appends a leaf with each issued seal and each first revocation, and proves every leaf against the stored root", async () => {
      const who = unique("logger");
      await grant(who, 2);
      const before = await store.logSize();
      const first = await sealedRun(who, params());
      const second = await sealedRun(who, params());
      assert.equal(await store.logSize(), before + 2, "one leaf per issued seal");
      assert.equal(await store.logLeafIndex(first.sealId, "issued"), before);
      assert.equal(await store.logLeafIndex(second.sealId, "issued"), before + 1);
      await store.revokeSeal(first.sealId, "log test");
      await store.revokeSeal(first.sealId, "again");
      assert.equal(await store.logSize(), before + 3, "a repeated revocation adds no leaf");
      assert.equal(await store.revokeSeal("seal_ffffffffffffffffffffffffffffffff", "none"), false);
      const [revoked] = await store.logEntries(before + 2, 10);
      const entry = parseLogEntry(Buffer.from(revoked?.entry ?? ""));
      assert.equal(entry?.event, "revoked");
      assert.equal(entry?.seal_id, first.sealId);
      // the stored subtree hashes agree with RFC 9162's MTH recomputed from the leaves themselves
      const size = await store.logSize();
      const leaves: Buffer[] = [];
      for (let start = 0; start < size; start += 1000)
        for (const leaf of await store.logEntries(start, 1000))
          leaves.push(hashLeaf(Buffer.from(leaf.entry)));
      const mth = (a: number, b: number): Buffer =>
        b - a === 1
          ? (leaves[a] as Buffer)
          : hashChildren(
              mth(a, a + largestPowerOfTwoBelow(b - a)),
              mth(a + largestPowerOfTwoBelow(b - a), b),
            );
      const root = foldSubtreeHashes(await store.logSubtreeHashes(subtreesOfRange({ start: 0, end: size })));
      assert.ok(root.equals(mth(0, size)));
      for (const leaf of [before, before + 1, before + 2]) {
        const path = await Promise.all(
          inclusionProofRanges(leaf, size).map(async (range) =>
            foldSubtreeHashes(await store.logSubtreeHashes(subtreesOfRange(range))),
          ),
        );
        assert.ok(verifyInclusion(leaf, size, leaves[leaf] as Buffer, path, root), `leaf ${leaf}`);
      }
      await rejectsWith(store.logSubtreeHashes([{ level: 40, index: 0 }]), "LOG_RANGE_INVALID");
    });

    it("says when its log began (the log migration's time), the same on every call (issue 38 item 2)", async () => {
      const started = await store.logStartedAt();
      assert.match(started, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Date.parse(started) <= Date.now());
      assert.equal(await store.logStartedAt(), started);
    });

    it("keeps the log append-only", async () => {
      await assert.rejects(harness.exec("UPDATE log_leaves SET entry = 'x'"), /append-only/);
      await assert.rejects(harness.exec("DELETE FROM log_leaves"), /append-only/);
      await assert.rejects(harness.exec("DELETE FROM log_hashes"), /append-only/);
      if (store.kind === "sqlite") {
        await assert.rejects(
          harness.exec("INSERT OR REPLACE INTO log_leaves SELECT * FROM log_leaves"),
          /append-only/,
        );
        await assert.rejects(
          harness.exec("INSERT OR REPLACE INTO log_hashes SELECT * FROM log_hashes"),
          /append-only/,
        );
      }
    });

    it("keeps the ledger append-only", async () => {
      const who = unique("audit");
      await grant(who, 1);
      await assert.rejects(harness.exec("UPDATE ledger_entries SET delta = 1000"), /append-only/);
      await assert.rejects(harness.exec("DELETE FROM ledger_entries"), /append-only/);
      // issue 16: SQLite's REPLACE deletes the colliding row without firing DELETE triggers
      const replace =
        store.kind === "sqlite"
          ? "INSERT OR REPLACE INTO ledger_entries SELECT * FROM ledger_entries"
          : "INSERT INTO ledger_entries SELECT * FROM ledger_entries ON CONFLICT (id) DO UPDATE SET delta = 1000";
      await assert.rejects(harness.exec(replace), /append-only/);
      if (store.kind === "sqlite")
        await assert.rejects(
          harness.exec(
            "REPLACE INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, actor, reason, created_at) SELECT kind, principal, mode, 1000, 1000, run_id, actor, reason, created_at FROM ledger_entries WHERE kind = 'consume' LIMIT 1",
          ),
          /append-only/,
          "a collision on the one-consume-per-run index",
        );
      await assert.rejects(
        harness.exec("UPDATE balances SET runs_remaining = -1"),
        /CHECK|check constraint/i,
        "a balance never goes negative",
      );
      assert.equal(await store.getBalance(who, "standard"), 1);
    });
  });
}
