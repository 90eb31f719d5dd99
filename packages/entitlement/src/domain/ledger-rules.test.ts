import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toInstant } from "@svc/core";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import {
  consumeEntry,
  decideConsume,
  decideGrant,
  decideRedemption,
  decideRunComplete,
  decideRunStart,
  grantAnswer,
  grantEntry,
  redemptionEntry,
} from "./ledger-rules.ts";
import type { LedgerEntry, RedeemScope, RunRecord, SealRecord } from "./ledger-types.ts";

const params = { run_id: "run_1", project_id: "p", mode: "standard", module_id: "computational" } as const;
const run: RunRecord = {
  ...params,
  principal: "alice",
  state: "consumed",
  consumed_at: "2025-01-01T00:00:00.000Z",
  ledger_entry_id: 7,
  runs_remaining_after: 4,
  category_id: null,
  inputs_sha256: null,
  image_reference: null,
  image_digest: null,
  started_at: null,
  outputs_sha256: null,
  run_manifest_sha256: null,
  completed_at: null,
  seal_id: null,
  funding: "purchased",
  rerun_of: null,
};
const funds = (purchased: number, creditFrom: string | null = null) => ({ purchased, creditFrom });
const seal: SealRecord = {
  seal_id: "seal_0123",
  run_id: "run_1",
  principal: "alice",
  project_id: "p",
  mode: "standard",
  funding: "purchased",
  revoked: false,
  revoked_reason: null,
  revoked_at: null,
  seal_json: '{"seal_id":"seal_0123"}',
};
const redeem = (principal: string | null, scope: RedeemScope = "issued_principal") => ({
  seal_id: seal.seal_id,
  principal,
  scope,
  actor: principal ?? "admin:1a2b",
});
const start = {
  ...params,
  category_id: "c",
  inputs_sha256: "a".repeat(64),
  image: { reference: "r", digest: null },
};
const complete = { run_id: "run_1", outputs_sha256: "b".repeat(64), run_manifest_sha256: "c".repeat(64) };

const code = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    if (isEntitlementError(error)) return error.code;
    throw error;
  }
  return "none";
};

describe("ledger rules", () => {
  it("charges a new run only when the balance has a run left", () => {
    assert.deepEqual(decideConsume(null, "alice", params, funds(1)), {
      kind: "charge",
      funding: "purchased",
    });
    assert.equal(
      code(() => decideConsume(null, "alice", params, funds(0))),
      "ENTITLEMENT_EXHAUSTED",
    );
  });

  it("spends a rerun credit for this project before a purchased run", () => {
    assert.deepEqual(decideConsume(null, "alice", params, funds(3, "seal_0123")), {
      kind: "charge",
      funding: "rerun",
      rerunOf: "seal_0123",
    });
    assert.deepEqual(decideConsume(null, "alice", params, funds(0, "seal_0123")).kind, "charge");
  });

  it("redeems only a purchased run's seal, once, by its issued principal unless the scope says any", () => {
    const none = () => false;
    assert.equal(decideRedemption(seal, redeem("alice"), none), "alice");
    assert.equal(
      decideRedemption(seal, redeem(null), none),
      "alice",
      "an admin redeems for the issued principal",
    );
    assert.equal(
      code(() => decideRedemption(seal, redeem("bob"), none)),
      "SEAL_NOT_YOURS",
    );
    assert.equal(decideRedemption(seal, redeem("bob", "any_principal"), none), "bob");
    assert.equal(
      code(() => decideRedemption(seal, redeem("alice"), () => true)),
      "SEAL_ALREADY_REDEEMED",
    );
    assert.equal(
      code(() => decideRedemption(null, redeem("alice"), none)),
      "SEAL_NOT_VERIFIED",
    );
    assert.equal(
      code(() => decideRedemption({ ...seal, revoked: true }, redeem("alice"), none)),
      "SEAL_NOT_VERIFIED",
    );
    assert.equal(
      code(() => decideRedemption({ ...seal, funding: "rerun" }, redeem("alice", "any_principal"), none)),
      "SEAL_NOT_REDEEMABLE",
    );
  });

  it("replays the stored answer for the same caller and parameters even with no run left", () => {
    assert.deepEqual(decideConsume(run, "alice", params, funds(0)), {
      kind: "replay",
      answer: {
        run_id: "run_1",
        principal: "alice",
        mode: "standard",
        consumed_at: run.consumed_at,
        ledger_entry_id: 7,
        runs_remaining: 4,
      },
    });
  });

  it("refuses a run_id of another principal or with other parameters", () => {
    assert.equal(
      code(() => decideConsume(run, "bob", params, funds(5))),
      "RUN_ID_CONFLICT",
    );
    assert.equal(
      code(() => decideConsume(run, "alice", { ...params, mode: "deep" }, funds(5))),
      "RUN_ID_CONFLICT",
    );
  });

  it("orders the lifecycle: run_start needs consume, run_complete needs run_start", () => {
    assert.equal(
      code(() => decideRunStart(null, "alice", start)),
      "LIFECYCLE_OUT_OF_ORDER",
    );
    assert.equal(decideRunStart(run, "alice", start), "record");
    assert.equal(
      code(() => decideRunComplete(run, "alice", complete)),
      "LIFECYCLE_OUT_OF_ORDER",
    );
    const started: RunRecord = {
      ...run,
      state: "started",
      category_id: "c",
      inputs_sha256: "a".repeat(64),
      image_reference: "r",
      image_digest: null,
    };
    assert.equal(decideRunStart(started, "alice", start), "replay");
    assert.equal(
      code(() => decideRunStart(started, "alice", { ...start, category_id: "d" })),
      "RUN_START_CONFLICT",
    );
    assert.equal(decideRunComplete(started, "alice", complete), "seal");
    const completed: RunRecord = {
      ...started,
      state: "completed",
      outputs_sha256: "b".repeat(64),
      run_manifest_sha256: "c".repeat(64),
    };
    assert.equal(decideRunComplete(completed, "alice", complete), "replay");
    assert.equal(
      code(() => decideRunComplete(completed, "alice", { ...complete, run_manifest_sha256: "d".repeat(64) })),
      "RUN_COMPLETE_CONFLICT",
    );
  });

  it("replays an idempotent grant and refuses a reused key for another grant", () => {
    const request = {
      principal: "alice",
      mode: "standard",
      runs: 3,
      idempotency_key: "k",
      actor: "admin",
    } as const;
    assert.deepEqual(decideGrant(null, request), { kind: "apply" });
    const previous: LedgerEntry = {
      id: 9,
      kind: "grant",
      principal: "alice",
      mode: "standard",
      delta: 3,
      runs_remaining_after: 3,
      run_id: null,
      seal_id: null,
      idempotency_key: "k",
      actor: "admin",
      reason: "r",
      created_at: "x",
    };
    assert.equal(decideGrant(previous, request).kind, "replay");
    assert.equal(
      code(() => decideGrant(previous, { ...request, runs: 4 })),
      "IDEMPOTENCY_KEY_CONFLICT",
    );
  });

  it("formats seal instants at second precision in UTC", () => {
    assert.equal(toInstant(new Date("2025-03-04T05:06:07.891Z")), "2025-03-04T05:06:07Z");
  });

  it("writes ledger lines that say who, which run or seal, and why, with the signed change", () => {
    assert.deepEqual(consumeEntry("alice", params), {
      kind: "consume",
      principal: "alice",
      mode: "standard",
      delta: -1,
      run_id: "run_1",
      seal_id: null,
      idempotency_key: null,
      actor: "alice",
      reason: "consume computational run for project p",
    });
    const grant = grantEntry({ principal: "bob", mode: "deep", runs: 5, actor: "admin:1a2b" });
    assert.equal(grant.delta, 5);
    assert.equal(grant.reason, "admin issue");
    assert.equal(grant.idempotency_key, null);
    assert.deepEqual(grantAnswer({ principal: "bob", mode: "deep", runs: 5, actor: "admin:1a2b" }, 9, 12), {
      principal: "bob",
      mode: "deep",
      granted: 5,
      runs_remaining: 12,
      ledger_entry_id: 9,
      replayed: false,
    });
    const redemption = redemptionEntry("carol", seal, "carol");
    assert.equal(redemption.delta, 1);
    assert.equal(redemption.seal_id, "seal_0123");
    assert.equal(redemption.kind, "redemption_grant");
  });
});
