import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { exportPublicKeyPem, generateSigningKey } from "@svc/core";
import { runCli } from "../src/program.ts";
import { type LoggedIssuer, startLoggedIssuer } from "./support/logged-issuer.ts";

// issue 30 item 5: svc log watch keeps the last checkpoint it saw and exits 15 when the issuer's
// log does not extend it. The fork: two logs of the same name and key, each of the same size.
const key = generateSigningKey();
const ISSUER_NAME = "https://seals.example";
let root: string;
let honest: LoggedIssuer;
let fork: LoggedIssuer;
let keyPath: string;
let sequence = 0;

async function watch(issuer: LoggedIssuer) {
  let stdout = "";
  let stderr = "";
  const env = { HOME: root, XDG_CONFIG_HOME: join(root, "config") };
  const code = await runCli(
    ["log", "watch", "--issuer", issuer.url, "--key", keyPath],
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    env,
  );
  return { code, stdout, stderr };
}

async function seal(issuer: LoggedIssuer): Promise<void> {
  const dir = join(root, `run-${sequence}`);
  await mkdir(dir);
  await issuer.sealFolder(dir, `run_watch_${sequence++}`);
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-watch-"));
  await mkdir(join(root, "honest"));
  await mkdir(join(root, "fork"));
  honest = await startLoggedIssuer(join(root, "honest"), { key, issuerName: ISSUER_NAME });
  fork = await startLoggedIssuer(join(root, "fork"), { key, issuerName: ISSUER_NAME });
  keyPath = join(root, "issuer.pem");
  await writeFile(keyPath, exportPublicKeyPem(key.publicKey));
});

after(async () => {
  await honest.close();
  await fork.close();
  await rm(root, { recursive: true, force: true });
});

describe("svc log watch", () => {
  it("keeps the first checkpoint it sees, then accepts a log that only grew", async () => {
    await seal(honest);
    const first = await watch(honest);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /^FIRST {2}seals\.example\/seal-log at size 1/);
    await seal(honest);
    await seal(honest);
    const grown = await watch(honest);
    assert.equal(grown.code, 0, grown.stdout);
    assert.match(grown.stdout, /^CONSISTENT {2}seals\.example\/seal-log grew from size 1 to 3/);
    const kept = JSON.parse(await readFile(join(root, "config", "svc", "log-witness.json"), "utf8"));
    assert.match(kept.logs["seals.example/seal-log"].checkpoint, /^seals\.example\/seal-log\n3\n/);
  });

  it("catches a fork: another tree of the same size signed by the same key, and keeps the evidence", async () => {
    for (let i = 0; i < 3; i += 1) await seal(fork);
    const caught = await watch(fork);
    assert.equal(caught.code, 15, caught.stdout + caught.stderr);
    assert.match(
      caught.stdout,
      /^LOG_INCONSISTENT {2}seals\.example\/seal-log: the checkpoint of size 3 .* does not extend the one of size 3/,
    );
    const kept = JSON.parse(await readFile(join(root, "config", "svc", "log-witness.json"), "utf8"));
    assert.equal(kept.logs["seals.example/seal-log"].issuer, honest.url, "the honest checkpoint stays kept");
  });

  it("catches a rolled-back log and a rewritten one that grew, and still accepts the honest log", async () => {
    await seal(honest);
    assert.equal((await watch(honest)).code, 0);
    assert.equal((await watch(fork)).code, 15, "a smaller tree than the one seen");
    await seal(fork);
    await seal(fork);
    assert.equal((await watch(fork)).code, 15, "a larger tree that does not extend the one seen");
    assert.equal((await watch(honest)).code, 0);
  });

  it("refuses a checkpoint no trusted key signed", async () => {
    const stranger = await startLoggedIssuer(join(root, "stranger"), { issuerName: ISSUER_NAME });
    try {
      await seal(stranger);
      const result = await watch(stranger);
      assert.equal(result.code, 3, result.stdout);
      assert.match(result.stdout, /^UNVERIFIED/);
    } finally {
      await stranger.close();
    }
  });
});
