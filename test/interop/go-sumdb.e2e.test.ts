import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import {
  consistencyProofRanges,
  generateSigningKey,
  hashChildren,
  hashLeaf,
  type LeafRange,
  type LogProof,
  largestPowerOfTwoBelow,
  noteVerifierKey,
  signCheckpoint,
} from "@svc/core";
import { type LoggedService, startLoggedService } from "./support/logged-service.ts";

// issue 30 item 7: Go's golang.org/x/mod/sumdb/note and sumdb/tlog (Debian golang-golang-x-mod-dev,
// no network) verify the seal log's checkpoints and proofs as our own verifier does, and refuse
// what it refuses: a wrong proof, an altered or deleted leaf, a forked checkpoint, another key.
const ORIGIN = "seals.example/seal-log";
const GO_ENV = { GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOFLAGS: "", GOPROXY: "off" };
let root: string;
let service: LoggedService;
let checker: string;
const logs: LogProof[] = [];
let entries: string[] = [];

interface GoAnswer {
  checkpoint: string;
  inclusions: string[] | null;
  consistency: string;
}

/** Runs the Go checker on one request. */
function goCheck(request: Record<string, unknown>): Promise<GoAnswer> {
  const child = spawn(checker, [], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => (out += String(chunk)));
  child.stderr.on("data", (chunk) => (err += String(chunk)));
  child.stdin.end(JSON.stringify(request));
  return new Promise((resolve, reject) =>
    child.on("close", (code) =>
      code === 0
        ? resolve(JSON.parse(out) as GoAnswer)
        : reject(new Error(`sumdb-check exited ${code}: ${err}`)),
    ),
  );
}

/** RFC 9162 MTH over leaf hashes, as the recursion defines it (for trees the log never served). */
function mth(leaves: readonly Buffer[], range: LeafRange): Buffer {
  if (range.end - range.start === 1) return leaves[range.start] as Buffer;
  const k = largestPowerOfTwoBelow(range.end - range.start);
  return hashChildren(
    mth(leaves, { start: range.start, end: range.start + k }),
    mth(leaves, { start: range.start + k, end: range.end }),
  );
}

const b64 = (hash: Buffer) => hash.toString("base64");

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-interop-go-"));
  checker = join(root, "sumdb-check");
  await promisify(execFile)(
    "go",
    ["build", "-o", checker, join(import.meta.dirname, "sumdb-check", "main.go")],
    {
      env: { ...process.env, ...GO_ENV, GOCACHE: join(root, "gocache") },
    },
  );
  service = await startLoggedService(root);
  for (let i = 0; i < 7; i += 1) logs.push((await service.sealRun(`run_interop_${i}`)).log);
  await service.revoke(JSON.parse(logs[2]?.entry ?? "{}").seal_id);
  const page = JSON.parse((await service.get("/api/log/entries?start=0&limit=1000")).text);
  entries = page.entries.map((leaf: { entry: string }) => leaf.entry);
});

after(async () => {
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

describe("the seal log, checked by Go's sumdb/note and sumdb/tlog", () => {
  it("accepts every run_complete proof against its checkpoint with the log key", async () => {
    const verifier_key = noteVerifierKey(ORIGIN, service.key.publicKey);
    for (const log of logs) {
      const answer = await goCheck({ verifier_key, checkpoint: log.checkpoint, inclusions: [log] });
      assert.deepEqual(answer.checkpoint, "ok");
      assert.deepEqual(answer.inclusions, ["ok"], `leaf ${log.leaf_index}`);
    }
  });

  it("accepts every leaf's inclusion proof and the consistency of an older checkpoint with the latest", async () => {
    const latest = (await service.get("/api/log/checkpoint")).text;
    assert.equal(entries.length, 8, "seven seals and one revocation");
    const inclusions = [];
    for (let i = 0; i < entries.length; i += 1)
      inclusions.push(
        JSON.parse((await service.get(`/api/log/proof/inclusion?leaf_index=${i}&tree_size=8`)).text),
      );
    const consistency = JSON.parse((await service.get("/api/log/proof/consistency?from=3&to=8")).text);
    const answer = await goCheck({
      verifier_key: noteVerifierKey(ORIGIN, service.key.publicKey),
      checkpoint: latest,
      inclusions,
      older: logs[2]?.checkpoint,
      consistency_proof: consistency.consistency_proof,
    });
    assert.deepEqual(answer, { checkpoint: "ok", inclusions: Array(8).fill("ok"), consistency: "ok" });
  });

  it("refuses a wrong proof, an altered leaf and a checkpoint signed by another key", async () => {
    const log = logs[5] as LogProof;
    const verifier_key = noteVerifierKey(ORIGIN, service.key.publicKey);
    const wrong = {
      ...log,
      inclusion_proof: log.inclusion_proof.map((h, i) => (i === 0 ? b64(hashLeaf(Buffer.from(h))) : h)),
    };
    const altered = { ...log, entry: log.entry.replace('"issued"', '"revoked"') };
    const answer = await goCheck({ verifier_key, checkpoint: log.checkpoint, inclusions: [wrong, altered] });
    assert.equal(answer.checkpoint, "ok");
    assert.match(answer.inclusions?.[0] ?? "", /^refused/);
    assert.match(answer.inclusions?.[1] ?? "", /^refused/);
    const other = generateSigningKey();
    const [, size, rootHash] = log.checkpoint.split("\n");
    const foreign = signCheckpoint(
      { origin: ORIGIN, size: Number(size), rootHash: Buffer.from(rootHash as string, "base64") },
      other,
    );
    assert.match(
      (await goCheck({ verifier_key, checkpoint: foreign, inclusions: [] })).checkpoint,
      /^refused/,
    );
  });

  it("refuses a history with a deleted leaf and a forked checkpoint of the same size, both signed by the log key", async () => {
    const leaves = entries.map((entry) => hashLeaf(Buffer.from(entry)));
    const verifier_key = noteVerifierKey(ORIGIN, service.key.publicKey);
    const older = logs[2]?.checkpoint as string;
    const sign = (hashes: Buffer[]) =>
      signCheckpoint(
        { origin: ORIGIN, size: hashes.length, rootHash: mth(hashes, { start: 0, end: hashes.length }) },
        service.key,
      );
    const proofFor = (hashes: Buffer[], from: number) =>
      consistencyProofRanges(from, hashes.length).map((range) => b64(mth(hashes, range)));
    // leaf 1 deleted: the issuer's later tree no longer holds a seal it issued
    const deleted = leaves.filter((_, i) => i !== 1);
    const deletedAnswer = await goCheck({
      verifier_key,
      checkpoint: sign(deleted),
      inclusions: [],
      older,
      consistency_proof: proofFor(deleted, 3),
    });
    assert.equal(deletedAnswer.checkpoint, "ok", "the log key did sign it");
    assert.match(deletedAnswer.consistency, /^refused/);
    // a fork: a tree of the same size as the latest, one leaf rewritten, shown to another auditor
    const forked = leaves.map((leaf, i) =>
      i === 4 ? hashLeaf(Buffer.from("a seal shown to one auditor only")) : leaf,
    );
    const latest = (await service.get("/api/log/checkpoint")).text;
    const forkAnswer = await goCheck({
      verifier_key,
      checkpoint: sign(forked),
      inclusions: [],
      older: latest,
      consistency_proof: [],
    });
    assert.match(forkAnswer.consistency, /^refused/);
    const rewritten = await goCheck({
      verifier_key,
      checkpoint: sign(forked),
      inclusions: [],
      older,
      consistency_proof: proofFor(forked, 3),
    });
    assert.equal(
      rewritten.consistency,
      "ok",
      "a rewrite after the older checkpoint's leaves is consistent with it alone",
    );
  });
});
