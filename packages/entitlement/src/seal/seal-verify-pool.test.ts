import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateSigningKey, issueSealBundle, newSealId, toTrustedKey, verifySealSvg } from "@svc/core";
import { isEntitlementError } from "../errors/entitlement-error.ts";
import { SvgUpload } from "../http/svg-upload.ts";
import { createSealVerifyPool } from "./seal-verify-pool.ts";

const TIMED_WORKER = new URL("../../test/support/timed-verify-worker.ts", import.meta.url);
const block = (ms: number) => SvgUpload.of(new TextEncoder().encode(String(ms)));

function freshSeal() {
  const key = generateSigningKey();
  const bundle = issueSealBundle(
    {
      seal_id: newSealId(),
      principal: "pool@example.com",
      run_id: "run_pool_1",
      project_id: "pool",
      mode: "standard",
      module_id: "computational",
      category_id: "ligand_only",
      image: { reference: "registry/runner:1.0.0", digest: null },
      inputs_sha256: "a".repeat(64),
      run_manifest_sha256: "b".repeat(64),
      outputs_sha256: "c".repeat(64),
      issued_at: "2026-11-23T10:00:00Z",
      issuer: "http://127.0.0.1",
      verify_url: null,
    },
    key,
  );
  return { svg: bundle.sealSvg, trusted: [toTrustedKey(key.publicKey)] };
}

describe("seal verification pool (issue 9 item 7)", () => {
  it("answers exactly what core's verifySealSvg answers, from a worker thread", async () => {
    const { svg, trusted } = freshSeal();
    const pool = createSealVerifyPool({ trustedKeys: trusted, workers: 1 });
    try {
      const inline = verifySealSvg(svg, trusted);
      const pooled = await pool.verify(SvgUpload.of(new TextEncoder().encode(svg)));
      assert.equal(pooled.state, "VERIFIED");
      assert.equal(pooled.reason, inline.reason);
      assert.deepEqual(pooled.checks, inline.checks);
      assert.deepEqual(pooled.payload, inline.payload);
      const tampered = await pool.verify(
        SvgUpload.of(new TextEncoder().encode(svg.replace("pool@example.com", "eve@example.com"))),
      );
      assert.equal(
        tampered.state,
        verifySealSvg(svg.replace("pool@example.com", "eve@example.com"), trusted).state,
      );
    } finally {
      await pool.close();
    }
  });

  it("refuses at once with VERIFY_BUSY when every worker is busy and the queue is full", async () => {
    const pool = createSealVerifyPool({ trustedKeys: [], workers: 1, queueMax: 2, workerUrl: TIMED_WORKER });
    try {
      const running = pool.verify(block(400));
      const queued = [pool.verify(block(10)), pool.verify(block(10))];
      await assert.rejects(pool.verify(block(10)), (error) => isEntitlementError(error, "VERIFY_BUSY"));
      assert.equal((await running).reason, "blocked 400 ms");
      for (const result of await Promise.all(queued)) assert.equal(result.state, "INVALID");
      assert.equal((await pool.verify(block(1))).reason, "blocked 1 ms", "the queue drained");
    } finally {
      await pool.close();
    }
  });

  it("ends a verification that overruns its time with SVG_UNREADABLE and keeps serving", async () => {
    const pool = createSealVerifyPool({
      trustedKeys: [],
      workers: 1,
      timeoutMs: 200,
      workerUrl: TIMED_WORKER,
    });
    try {
      await assert.rejects(pool.verify(block(5_000)), (error) => {
        assert.ok(isEntitlementError(error, "SVG_UNREADABLE"));
        assert.match(error.message, /more than 200 ms/);
        return true;
      });
      assert.equal((await pool.verify(block(1))).reason, "blocked 1 ms", "a fresh worker took its place");
    } finally {
      await pool.close();
    }
  });

  it("refuses queued and new uploads once closed", async () => {
    const pool = createSealVerifyPool({ trustedKeys: [], workers: 1, workerUrl: TIMED_WORKER });
    const running = pool.verify(block(300));
    const queued = pool.verify(block(1));
    const refused = [
      assert.rejects(queued, (error) => isEntitlementError(error, "SHUTTING_DOWN")),
      assert.rejects(running),
    ];
    await pool.close();
    await Promise.all(refused);
    await assert.rejects(pool.verify(block(1)), (error) => isEntitlementError(error, "SHUTTING_DOWN"));
  });
});
