import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  checkLogProofFile,
  formatLogProofFile,
  hashLeaf,
  isSealPayload,
  openCheckpoint,
  parseSealPayload,
  toTrustedKey,
  verifyConsistency,
  verifyInclusion,
} from "@svc/core";
import { sealTestRun, startServiceWithRuns, type TestService } from "./app-harness.ts";

const hex = (char: string) => char.repeat(64);
let sequence = 0;
const RUN = { project_id: "proj1", mode: "standard", module_id: "computational" };

describe("the seal log over HTTP (issue 30)", () => {
  let svc: TestService;
  let token: string;

  /** consume → run_start → run_complete; returns the run_complete answer. */
  const sealRun = () =>
    sealTestRun(
      svc,
      token,
      { run_id: `run_log_${Date.now()}_${sequence++}`, ...RUN },
      { inputs_sha256: hex("a"), digest: `sha256:${hex("f")}` },
    );

  before(async () => {
    ({ svc, token } = await startServiceWithRuns("alice", 20));
  });
  after(async () => {
    await svc.close();
  });

  it("run_complete returns the seal's leaf, its inclusion proof and a checkpoint the pinned key verifies", async () => {
    const trusted = [toTrustedKey(svc.signingKey.publicKey)];
    for (let i = 0; i < 5; i += 1) {
      const done = await sealRun();
      const payload = parseSealPayload(JSON.parse(done.seal.seal_json));
      assert.ok(isSealPayload(payload));
      const file = Buffer.from(formatLogProofFile(done.log));
      const { check, verified } = checkLogProofFile(payload, Buffer.from(done.seal.seal_json), file, trusted);
      assert.equal(check.ok, true, check.detail);
      assert.equal(verified?.leafIndex, i);
      assert.equal(verified?.size, i + 1);
    }
    const replay = await svc.request("/api/entitlement/run_complete", {
      token,
      body: { run_id: `run_log_missing`, outputs_sha256: hex("b"), run_manifest_sha256: hex("c") },
    });
    assert.equal(replay.status, 422, "no leaf without a seal");
  });

  it("serves the latest checkpoint as a C2SP note, proofs by index and seal id, consistency and paged entries", async () => {
    const trusted = [toTrustedKey(svc.signingKey.publicKey)];
    const first = await svc.request("/api/log/checkpoint");
    assert.equal(first.status, 200);
    assert.match(first.headers.get("content-type") ?? "", /^text\/plain/);
    const older = openCheckpoint(first.body, trusted);
    assert.ok("checkpoint" in older);
    const sealed = await sealRun();
    await svc.request("/api/seal/revoke", {
      body: { seal_id: sealed.seal.seal_id, reason: "log test" },
      headers: { "x-svc-admin-token": svc.adminToken },
    });
    const latest = openCheckpoint((await svc.request("/api/log/checkpoint")).body, trusted);
    assert.ok("checkpoint" in latest);
    assert.ok(latest.checkpoint.size >= older.checkpoint.size + 1);

    const consistency = await svc.request(`/api/log/proof/consistency?from=${older.checkpoint.size}`);
    assert.equal(consistency.status, 200);
    assert.ok(
      verifyConsistency(
        older.checkpoint.size,
        consistency.body.to,
        older.checkpoint.rootHash,
        latest.checkpoint.rootHash,
        consistency.body.consistency_proof.map((hash: string) => Buffer.from(hash, "base64")),
      ),
    );

    const bySeal = await svc.request(`/api/log/proof/inclusion?seal_id=${sealed.seal.seal_id}`);
    assert.equal(bySeal.status, 200);
    assert.equal(bySeal.body.leaf_index, sealed.log.leaf_index);
    const byIndex = await svc.request(
      `/api/log/proof/inclusion?leaf_index=${sealed.log.leaf_index}&tree_size=${sealed.log.leaf_index + 1}`,
    );
    assert.deepEqual(byIndex.body, sealed.log, "the same proof run_complete gave, against the same tree");
    const opened = openCheckpoint(bySeal.body.checkpoint, trusted);
    assert.ok("checkpoint" in opened);
    assert.ok(
      verifyInclusion(
        bySeal.body.leaf_index,
        opened.checkpoint.size,
        hashLeaf(Buffer.from(bySeal.body.entry)),
        bySeal.body.inclusion_proof.map((hash: string) => Buffer.from(hash, "base64")),
        opened.checkpoint.rootHash,
      ),
    );
    const revoked = await svc.request(
      `/api/log/proof/inclusion?seal_id=${sealed.seal.seal_id}&event=revoked`,
    );
    assert.equal(revoked.status, 200);
    assert.equal(JSON.parse(revoked.body.entry).event, "revoked");

    const page = await svc.request("/api/log/entries?start=0&limit=2");
    assert.equal(page.body.entries.length, 2);
    assert.equal(page.body.next_start, 2);
    const all = await svc.request(`/api/log/entries?start=0&limit=1000`);
    assert.equal(all.body.entries.length, latest.checkpoint.size);
    assert.equal(all.body.next_start, null);
  });

  it("refuses sizes and indexes outside the log with stable codes", async () => {
    const size = Number((await svc.request("/api/log/checkpoint")).body.split("\n")[1]);
    const cases: [string, number, string][] = [
      [`/api/log/proof/inclusion?leaf_index=${size}`, 400, "LOG_RANGE_INVALID"],
      [`/api/log/proof/inclusion?leaf_index=0&tree_size=${size + 1}`, 400, "LOG_RANGE_INVALID"],
      ["/api/log/proof/inclusion?seal_id=seal_ffffffffffffffffffffffffffffffff", 404, "LOG_LEAF_NOT_FOUND"],
      ["/api/log/proof/inclusion", 400, "REQUEST_INVALID"],
      [`/api/log/proof/consistency?from=${size + 1}`, 400, "LOG_RANGE_INVALID"],
      ["/api/log/proof/consistency?from=3&to=2", 400, "LOG_RANGE_INVALID"],
      ["/api/log/entries?limit=1001", 400, "REQUEST_INVALID"],
    ];
    for (const [path, status, code] of cases) {
      const answer = await svc.request(path);
      assert.equal(answer.status, status, path);
      assert.equal(answer.body.error.code, code, path);
    }
  });
});
