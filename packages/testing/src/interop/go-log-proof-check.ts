import { execFile, spawn, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { importPublicKeyPem, noteVerifierKey, RUN_FILES } from "@svc/core";

// issue 30 "Done when": every seal of the demo and the whole-system test has a leaf and an
// inclusion proof that Go's golang.org/x/mod/sumdb/tlog accepts against a checkpoint Go's
// sumdb/note verifies with the log key. The program is test/interop/sumdb-check (Debian
// golang-go + golang-golang-x-mod-dev, GOPATH mode, no network).

// the program lives with the interop tests that also run it on crafted logs
const SOURCE = join(import.meta.dirname, "..", "..", "..", "..", "test", "interop", "sumdb-check", "main.go");
const GO_ENV = { GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOFLAGS: "", GOPROXY: "off" };

/** Why the Go check cannot run here (no `go` on PATH), or null when it can. */
export function goMissingReason(): string | null {
  const probe = spawnSync("go", ["version"], { encoding: "utf8" });
  return probe.status === 0
    ? null
    : "`go` is not on PATH (CI installs golang-go and golang-golang-x-mod-dev)";
}

/** Builds the sumdb-check program into `dir`; returns its path. */
export async function buildSumdbCheck(dir: string): Promise<string> {
  const checker = join(dir, "sumdb-check");
  await promisify(execFile)("go", ["build", "-o", checker, SOURCE], {
    env: { ...process.env, ...GO_ENV, GOCACHE: join(dir, "gocache") },
  });
  return checker;
}

/**
 * Runs Go's note and tlog on a run folder's `seal/log-proof.json`: the checkpoint verified with the
 * issuer's key under the checkpoint's origin, the seal's leaf proved into it. Returns Go's
 * verdicts ("ok" or "refused: …") for the checkpoint and the inclusion.
 */
export async function goCheckRunFolder(
  checker: string,
  runDir: string,
  publicKeyPem: string,
): Promise<{ checkpoint: string; inclusion: string }> {
  // the folder's bytes as they are, not our parse of them: Go reads what a verifier would
  const proof = JSON.parse(await readFile(join(runDir, RUN_FILES.sealLogProof), "utf8"));
  const origin = String(proof.checkpoint).split("\n")[0] ?? "";
  const request = {
    verifier_key: noteVerifierKey(origin, importPublicKeyPem(publicKeyPem)),
    checkpoint: proof.checkpoint,
    inclusions: [proof],
  };
  const child = spawn(checker, [], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => (out += String(chunk)));
  child.stderr.on("data", (chunk) => (err += String(chunk)));
  child.stdin.end(JSON.stringify(request));
  const answer = await new Promise<{ checkpoint: string; inclusions: string[] | null }>((resolve, reject) =>
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sumdb-check exited ${code}: ${err}`)),
    ),
  );
  return { checkpoint: answer.checkpoint, inclusion: answer.inclusions?.[0] ?? "refused: no answer" };
}
