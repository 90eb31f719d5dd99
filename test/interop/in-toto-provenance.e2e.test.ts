import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import {
  canonicalBytes,
  exportPublicKeyPem,
  IN_TOTO_PAYLOAD_TYPE,
  signDsseEnvelope,
  VERIFY_SCRIPT,
} from "@svc/core";
import { createTempDir, type TempDir } from "@svc/testing";
import { runCli, stageDemo } from "../../packages/runner/test/support/run-cli.ts";
import { type LoggedService, startLoggedService } from "./support/logged-service.ts";

// issue 30 item 7: the run's signed SLSA provenance (seal/provenance.intoto.jsonl), as the runner
// writes it from a real run_complete of the real entitlement service, checked by Debian's
// python3-securesystemslib (Ed25519 over the DSSE PAE) in a script sharing no code with ours.
// Debian's in-toto 1.3.1 predates DSSE envelopes and Statement v1 (its in-toto-verify checks
// layouts and links), so the script reads the statement itself, per the in-toto attestation spec.
const SCRIPT = join(import.meta.dirname, "in-toto-check", "verify_provenance.py");
const sh = promisify(execFile);
const SVC_BIN = join(import.meta.dirname, "..", "..", "packages", "cli", "bin", "svc.ts");
let dir: TempDir;
let service: LoggedService;
let runDir: string;
let keyFile: string;

/** `svc seal verify --json --key` of a folder: its exit code and reason code. */
async function svcVerify(folder: string): Promise<{ code: number; reason: string | null }> {
  const { XDG_CONFIG_HOME: _x, SVC_TRUSTED_KEYS: _k, ...env } = process.env;
  const run = await sh(process.execPath, [SVC_BIN, "seal", "verify", folder, "--key", keyFile, "--json"], {
    env: { ...env, XDG_CONFIG_HOME: join(dir.path, "no-config") },
  }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  return { code: run.code, reason: (JSON.parse(run.stdout) as { reason_code: string | null }).reason_code };
}

/** The released verify.sh (a copy outside the folder) with the issuer key: "ok" or its FAILED line. */
async function verifyScript(folder: string): Promise<string> {
  const script = join(dir.path, "verify.sh");
  await writeFile(script, VERIFY_SCRIPT);
  return sh("bash", [script, "--key", keyFile, folder]).then(
    () => "ok",
    (error: { stderr: string }) => error.stderr.trim(),
  );
}

/** The Python check's verdict: "ok: …" (exit 0) or "refused: …" (exit 1). */
async function pythonCheck(folder: string): Promise<string> {
  try {
    return (await sh("/usr/bin/python3", [SCRIPT, folder, keyFile])).stdout.trim();
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error).trim();
  }
}

before(async () => {
  dir = await createTempDir("svc-interop-in-toto-");
  service = await startLoggedService(dir.path);
  keyFile = join(dir.path, "issuer.pem");
  await writeFile(keyFile, exportPublicKeyPem(service.key.publicKey));
  const staged = await stageDemo();
  const runId = "run_20261127T040000Z";
  const result = await runCli(
    [
      ...["--project-id", "demo", "--run-id", runId],
      ...["--input-root", staged.inputRoot, "--output-root", staged.outputRoot],
      ...["--entitlement-url", service.url, "--audience", service.url, "--auth-mode", "dev"],
    ],
    { SVC_DEV_TOKEN: "interop-token" },
  );
  assert.equal(result.code, 0, result.stderr);
  runDir = join(staged.outputRoot, runId);
});

after(async () => {
  await service?.close();
  await dir?.remove();
});

describe("the signed SLSA provenance, checked with securesystemslib", () => {
  it("accepts the runner's seal/provenance.intoto.jsonl: DSSE signature by the issuer key, subjects = the sealed outputs", async () => {
    const lines = (await readFile(join(runDir, "seal", "provenance.intoto.jsonl"), "utf8")).split("\n");
    assert.equal(lines.length, 2, "one envelope, one line");
    assert.match(await pythonCheck(runDir), /^ok: 1 envelope\(s\), \d+ subjects/);
    assert.deepEqual(await svcVerify(runDir), { code: 0, reason: null });
    assert.equal(await verifyScript(runDir), "ok");
  });

  it("refuses a tampered statement, a tampered signature and a changed output", async () => {
    const copy = async (name: string, change: (folder: string) => Promise<void>) => {
      const folder = join(dir.path, name);
      await cp(runDir, folder, { recursive: true });
      await change(folder);
      return pythonCheck(folder);
    };
    const file = (folder: string) => join(folder, "seal", "provenance.intoto.jsonl");
    const statement = await copy("statement", async (folder) => {
      const envelope = JSON.parse(await readFile(file(folder), "utf8"));
      const body = Buffer.from(envelope.payload, "base64")
        .toString()
        .replace('"name":"run_manifest.json"', '"name":"run_manifest.jsom"');
      await writeFile(
        file(folder),
        `${JSON.stringify({ ...envelope, payload: Buffer.from(body).toString("base64") })}\n`,
      );
    });
    assert.match(statement, /^refused: line 1: DSSE signature/);
    const signature = await copy("signature", async (folder) => {
      const envelope = JSON.parse(await readFile(file(folder), "utf8"));
      const sig = Buffer.from(envelope.signatures[0].sig, "base64");
      sig[10] = (sig[10] ?? 0) ^ 0xff;
      envelope.signatures[0].sig = sig.toString("base64");
      await writeFile(file(folder), `${JSON.stringify(envelope)}\n`);
    });
    assert.match(signature, /^refused: line 1: DSSE signature/);
    // the project's own verifiers refuse the same statement, with their distinct reason
    const tampered = join(dir.path, "statement");
    assert.deepEqual(await svcVerify(tampered), { code: 1, reason: "PROVENANCE_INVALID" });
    assert.match(await verifyScript(tampered), /DSSE signature does not verify .*PROVENANCE_INVALID/);
    assert.deepEqual(await svcVerify(join(dir.path, "signature")), { code: 1, reason: "PROVENANCE_INVALID" });
    const output = await copy("output", async (folder) => {
      await writeFile(join(folder, "results", "summary.json"), "{}\n");
    });
    assert.match(output, /^refused: line 1: the subjects are not the run folder's files/);
  });

  it("refuses a statement the issuer's own key re-signed with a subject dropped: securesystemslib check, svc seal verify and verify.sh", async () => {
    const folder = join(dir.path, "resigned");
    await cp(runDir, folder, { recursive: true });
    const file = join(folder, "seal", "provenance.intoto.jsonl");
    const envelope = JSON.parse(await readFile(file, "utf8"));
    const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString());
    statement.subject = statement.subject.filter(
      (subject: { name: string }) => subject.name !== "results/report.html",
    );
    const resigned = signDsseEnvelope(IN_TOTO_PAYLOAD_TYPE, canonicalBytes(statement), service.key);
    await writeFile(file, `${JSON.stringify(resigned)}\n`);
    assert.match(await pythonCheck(folder), /^refused: line 1: the subjects are not the run folder's files/);
    assert.deepEqual(await svcVerify(folder), { code: 1, reason: "PROVENANCE_INVALID" });
    assert.match(
      await verifyScript(folder),
      /the statement's subjects are not the sealed outputs \(PROVENANCE_INVALID\)/,
    );
  });
});
