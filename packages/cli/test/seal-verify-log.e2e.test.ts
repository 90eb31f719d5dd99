import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  exportPublicKeyPem,
  formatLogProofFile,
  generateSigningKey,
  hashChildren,
  hashLeaf,
  type LogProof,
  logOriginOf,
  signCheckpoint,
  VERIFY_SCRIPT,
} from "@svc/core";
import { copyFolder, type LoggedIssuer, startLoggedIssuer } from "./support/logged-issuer.ts";

// issue 30 item 4: svc seal verify checks the seal's log proof offline against a pinned key, and
// with --issuer that the issuer's log still extends the checkpoint kept and still holds the leaf.
const SVC_BIN = resolve(import.meta.dirname, "..", "bin", "svc.ts");
let root: string;
let issuer: LoggedIssuer;
let sealed: string;
let proof: LogProof;
let keyPath: string;

/** Runs svc as its own process without blocking this one, which serves the issuer. */
function svc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { SVC_TRUSTED_KEYS: _unset, ...rest } = process.env;
  const env = { ...rest, XDG_CONFIG_HOME: join(root, "config"), HOME: root };
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  return new Promise((resolveRun) => child.on("close", (code) => resolveRun({ code, stdout, stderr })));
}

async function withProof(name: string, change: (proof: LogProof) => LogProof): Promise<string> {
  const dir = await copyFolder(sealed, join(root, name));
  await writeFile(join(dir, "seal", "log-proof.json"), formatLogProofFile(change(proof)));
  return dir;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-log-"));
  issuer = await startLoggedIssuer(join(root, "issuer"));
  // a few seals before and after, so the proof has siblings on both sides
  await issuer.sealFolder(join(root, "before-1"), "run_log_before_1");
  await issuer.sealFolder(join(root, "before-2"), "run_log_before_2");
  sealed = join(root, "sealed");
  proof = (await issuer.sealFolder(sealed, "run_log_sealed")).log;
  await issuer.sealFolder(join(root, "after-1"), "run_log_after_1");
  keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, exportPublicKeyPem(issuer.key.publicKey));
});

after(async () => {
  await issuer.close();
  await rm(root, { recursive: true, force: true });
});

describe("svc seal verify and the seal log", () => {
  it("verifies the run folder's inclusion proof offline against the pinned key", async () => {
    const result = await svc(["seal", "verify", sealed, "--key", keyPath]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /ok {3}log_inclusion: leaf 2 of 127\.0\.0\.1:\d+\/seal-log, in its checkpoint of size 3/,
    );
  });

  it("with --issuer, checks the issuer's log extends the checkpoint kept and still holds the leaf", async () => {
    const result = await svc(["seal", "verify", sealed, "--issuer", issuer.url]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /ok {3}log_consistency: .* at size 4 extends the folder's checkpoint \(size 3\) and still holds leaf 2/,
    );
  });

  it("refuses a wrong inclusion proof: LOG_PROOF_INVALID, exit 9", async () => {
    const dir = await withProof("wrong-proof", (p) => ({
      ...p,
      inclusion_proof: p.inclusion_proof.map((hash, i) =>
        i === 0 ? hashLeaf(Buffer.from(hash)).toString("base64") : hash,
      ),
    }));
    const result = await svc(["seal", "verify", dir, "--key", keyPath]);
    assert.equal(result.code, 9, result.stdout);
    assert.match(result.stdout, /^LOG_PROOF_INVALID /);
  });

  it("refuses a checkpoint signed by another key: LOG_PROOF_INVALID", async () => {
    const other = generateSigningKey();
    const dir = await withProof("foreign-checkpoint", (p) => {
      const [origin, size, root] = p.checkpoint.split("\n");
      return {
        ...p,
        checkpoint: signCheckpoint(
          { origin: origin as string, size: Number(size), rootHash: Buffer.from(root as string, "base64") },
          other,
        ),
      };
    });
    const result = await svc(["seal", "verify", dir, "--key", keyPath]);
    assert.equal(result.code, 9, result.stdout);
  });

  it("refuses an altered leaf: LOG_ENTRY_MISMATCH, exit 14", async () => {
    const dir = await withProof("altered-leaf", (p) => ({
      ...p,
      entry: p.entry.replace('"issued"', '"revoked"'),
    }));
    const result = await svc(["seal", "verify", dir, "--key", keyPath]);
    assert.equal(result.code, 14, result.stdout);
    assert.match(result.stdout, /^LOG_ENTRY_MISMATCH /);
  });

  it("refuses an unreadable or reformatted log-proof.json: nothing unchecked passes", async () => {
    const dir = await copyFolder(sealed, join(root, "reformatted"));
    await writeFile(join(dir, "seal", "log-proof.json"), `${JSON.stringify(proof)}\n`);
    assert.equal((await svc(["seal", "verify", dir, "--key", keyPath])).code, 9);
  });

  it("with --issuer, refuses a folder whose checkpoint is from a forked history: LOG_INCONSISTENT, exit 15", async () => {
    // the same key signs a tree of the same seal with another first leaf: a second history
    const entry = Buffer.from(proof.entry);
    const forkedRoot = hashChildren(
      hashLeaf(Buffer.from("a leaf the issuer showed nobody else")),
      hashLeaf(entry),
    );
    const forked: LogProof = {
      ...proof,
      leaf_index: 1,
      inclusion_proof: [hashLeaf(Buffer.from("a leaf the issuer showed nobody else")).toString("base64")],
      checkpoint: signCheckpoint(
        { origin: logOriginOf(issuer.url), size: 2, rootHash: forkedRoot },
        issuer.key,
      ),
    };
    const dir = await withProof("forked", () => forked);
    const offline = await svc(["seal", "verify", dir, "--key", keyPath]);
    assert.equal(offline.code, 0, `offline the fork is a valid proof: ${offline.stdout}`);
    const result = await svc(["seal", "verify", dir, "--issuer", issuer.url]);
    assert.equal(result.code, 15, result.stdout);
    assert.match(result.stdout, /^LOG_INCONSISTENT /);
    assert.match(result.stdout, /rewritten or forked history/);
  });

  it("offline, refuses a folder whose checkpoint forks the one svc log watch kept (same origin and size, another root): LOG_INCONSISTENT, exit 15", async (t) => {
    const witnessPath = join(root, "config", "svc", "log-witness.json");
    t.after(() => rm(witnessPath, { force: true }));
    const [origin, size] = proof.checkpoint.split("\n") as [string, string];
    const keep = async (note: string) => {
      await mkdir(join(root, "config", "svc"), { recursive: true });
      const logs = { [origin]: { checkpoint: note, issuer: issuer.url, seen_at: "2026-12-01T00:00:00Z" } };
      await writeFile(witnessPath, JSON.stringify({ version: "svc.log-witness/v1", logs }));
    };
    // the witness kept the same tree: the folder's checkpoint is confirmed
    await keep(proof.checkpoint);
    const same = await svc(["seal", "verify", sealed, "--key", keyPath]);
    assert.equal(same.code, 0, same.stdout);
    assert.match(same.stdout, /log_consistency: the folder's checkpoint .* is the one svc log watch kept/);
    // the witness kept another tree of the same size, signed by the same key: a fork
    const other = signCheckpoint({ origin, size: Number(size), rootHash: Buffer.alloc(32, 9) }, issuer.key);
    await keep(other);
    const forked = await svc(["seal", "verify", sealed, "--key", keyPath]);
    assert.equal(forked.code, 15, forked.stdout);
    assert.match(forked.stdout, /^LOG_INCONSISTENT /);
    assert.match(forked.stdout, /another root than the one svc log watch kept/);
  });

  it("refuses a folder whose log-proof.json was deleted when the pinned key says its issuer logs every seal: LOG_PROOF_MISSING, exit 17", async () => {
    // the keys as the issuer publishes them (GET /api/seal/keys, each with log_from) and svc trust add pins them
    const published = (await (await fetch(`${issuer.url}/api/seal/keys`)).json()) as {
      keys: { log_from: string }[];
    };
    assert.ok(
      published.keys.every((key) => typeof key.log_from === "string"),
      JSON.stringify(published),
    );
    const keysFile = join(root, "published-keys.json");
    await writeFile(keysFile, JSON.stringify(published));
    const dir = await copyFolder(sealed, join(root, "proof-deleted"));
    await rm(join(dir, "seal", "log-proof.json"));
    const result = await svc(["seal", "verify", dir, "--keys", keysFile]);
    assert.equal(result.code, 17, result.stdout);
    assert.match(result.stdout, /^LOG_PROOF_MISSING /);
    assert.match(result.stdout, /reason: LOG_PROOF_MISSING: log_inclusion: seal\/log-proof\.json is missing/);
    // the same folder with its proof is VERIFIED under the same keys; a bare PEM says nothing of a log
    assert.equal((await svc(["seal", "verify", sealed, "--keys", keysFile])).code, 0);
    assert.equal((await svc(["seal", "verify", dir, "--key", keyPath])).code, 0);
  });

  it("the released verify.sh checks the log proof too: the genuine folder passes, a wrong proof or altered leaf fails", async () => {
    const script = join(root, "verify.sh");
    await writeFile(script, VERIFY_SCRIPT);
    const run = (dir: string) => spawnSync("bash", [script, "--key", keyPath, dir], { encoding: "utf8" });
    const genuine = run(sealed);
    assert.equal(genuine.status, 0, genuine.stderr);
    assert.match(genuine.stdout, /the issuer's log holds the seal/);
    const wrong = run(join(root, "wrong-proof"));
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /LOG_PROOF_INVALID/);
    assert.equal(run(join(root, "altered-leaf")).status, 1);
    assert.equal(run(join(root, "foreign-checkpoint")).status, 1);
  });

  it("reads the kept proof as the runner wrote it", async () => {
    const written = JSON.parse(await readFile(join(sealed, "seal", "log-proof.json"), "utf8"));
    assert.equal(written.version, "svc.log-proof/v1");
  });
});
