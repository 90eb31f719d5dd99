import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  checkResponseSchema,
  consumeResponseSchema,
  errorBodySchema,
  ID_RULE,
  runCompleteResponseSchema,
  runStartResponseSchema,
  verifySealSvg,
} from "@svc/core";

/** What the contract suite needs of an entitlement service implementation. */
export interface EntitlementUnderContract {
  readonly url: string;
  /** A bearer token the implementation accepts for `principal`. */
  tokenFor(principal: string): Promise<string>;
  /** Gives `principal` that many standard runs. */
  grant(principal: string, runs: number): Promise<void>;
  close(): Promise<void>;
}

const HASH_A = "a".repeat(64);
const HASH_B = "b".repeat(64);
const HASH_C = "c".repeat(64);

/**
 * One HTTP contract suite (docs/contracts/entitlement-http.md), run against every implementation
 * (ARCHITECTURE.md convention 3): the real service and the runner's fake. Every answer is parsed
 * with the schema in core/src/contracts that the runner's client uses, so an implementation that
 * drops or retypes a field fails here before a runner test can pass against it.
 */
export function describeEntitlementContract(
  name: string,
  start: () => Promise<EntitlementUnderContract>,
): void {
  describe(`entitlement HTTP contract: ${name}`, () => {
    let service: EntitlementUnderContract;
    let token: string;
    let other: string;
    let broke: string;
    const principal = "contract@example.com";
    before(async () => {
      service = await start();
      await service.grant(principal, 3);
      token = await service.tokenFor(principal);
      other = await service.tokenFor("other@example.com");
      await service.grant("other@example.com", 1);
      broke = await service.tokenFor("broke@example.com");
    });
    after(() => service?.close());

    async function post(
      step: string,
      bearer: string,
      body: unknown,
    ): Promise<{ status: number; body: unknown }> {
      const response = await fetch(new URL(`/api/entitlement/${step}`, service.url), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    }

    function expectError(answer: { status: number; body: unknown }, status: number, code: string): void {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(errorBodySchema.parse(answer.body).error.code, code);
    }

    const run = (runId: string) => ({
      run_id: runId,
      project_id: "contract-project",
      mode: "standard",
      module_id: "computational",
    });
    const start_ = (runId: string) => ({
      ...run(runId),
      category_id: "ligand_only",
      inputs_sha256: HASH_A,
      image: { reference: "registry.example/runner:1.0.0", digest: null },
    });

    it("check answers the contract's shape and charges nothing", async () => {
      const first = await post("check", token, run("contract-check-1"));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const answer = checkResponseSchema.parse(first.body);
      assert.equal(answer.already_consumed, false);
      const again = checkResponseSchema.parse((await post("check", token, run("contract-check-1"))).body);
      assert.equal(again.runs_remaining, answer.runs_remaining);
    });

    it("consume, run_start and run_complete answer the contract's shapes, idempotently, with a verifiable seal", async () => {
      const runId = "contract-lifecycle-1";
      const consumed = await post("consume", token, run(runId));
      assert.equal(consumed.status, 200, JSON.stringify(consumed.body));
      const consume = consumeResponseSchema.parse(consumed.body);
      assert.equal(consume.run_id, runId);
      assert.deepEqual(consumeResponseSchema.parse((await post("consume", token, run(runId))).body), consume);
      const check = checkResponseSchema.parse((await post("check", token, run(runId))).body);
      assert.equal(check.already_consumed, true);

      const started = await post("run_start", token, start_(runId));
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.equal(runStartResponseSchema.parse(started.body).state, "started");

      const completion = { run_id: runId, outputs_sha256: HASH_B, run_manifest_sha256: HASH_C };
      const completed = await post("run_complete", token, completion);
      assert.equal(completed.status, 200, JSON.stringify(completed.body));
      const { seal } = runCompleteResponseSchema.parse(completed.body);
      assert.equal(seal.payload.run_id, runId);
      const verdict = verifySealSvg(seal.seal_svg, [
        { key_id: seal.key_id, public_key_pem: seal.public_key_pem },
      ]);
      assert.equal(verdict.state, "VERIFIED", verdict.reason);
      const retried = runCompleteResponseSchema.parse((await post("run_complete", token, completion)).body);
      assert.equal(retried.seal.seal_id, seal.seal_id);
      expectError(
        await post("run_complete", token, { ...completion, outputs_sha256: HASH_A }),
        409,
        "RUN_COMPLETE_CONFLICT",
      );
    });

    it("refuses with the error envelope: 401 bad token, 402 exhausted, 409 reuse, 422 out of order", async () => {
      expectError(await post("check", "not-a-token", run("contract-refusal-1")), 401, "AUTH_MALFORMED");
      expectError(await post("consume", broke, run("contract-refusal-1")), 402, "ENTITLEMENT_EXHAUSTED");
      assert.equal((await post("consume", token, run("contract-refusal-2"))).status, 200);
      expectError(await post("consume", other, run("contract-refusal-2")), 409, "RUN_ID_CONFLICT");
      expectError(
        await post("run_start", token, start_("contract-refusal-3")),
        422,
        "LIFECYCLE_OUT_OF_ORDER",
      );
    });

    it("refuses a run id outside the grammar with 400 REQUEST_INVALID and core's one rule", async () => {
      for (const bad of ["run-", "run:1", "x".repeat(129)]) {
        const answer = await post("check", token, run(bad));
        expectError(answer, 400, "REQUEST_INVALID");
        const { message } = errorBodySchema.parse(answer.body).error;
        assert.ok(message.includes(`field run_id: ${ID_RULE}`), message);
      }
    });

    it("a 100-character run id is charged like any other", async () => {
      const runId = `contract-${"x".repeat(90)}9`;
      assert.equal(runId.length, 100);
      const consumed = await post("consume", token, run(runId));
      assert.equal(consumed.status, 200, JSON.stringify(consumed.body));
      assert.equal(consumeResponseSchema.parse(consumed.body).run_id, runId);
    });
  });
}
