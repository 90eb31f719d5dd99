import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { exportPublicKeyPem, generateSigningKey, signCheckpoint } from "@svc/core";
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

async function watch(issuer: Pick<LoggedIssuer, "url">) {
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

/** An issuer of our own on loopback whose GET /api/log/checkpoint answers `answer`. */
async function fakeIssuer(answer: (response: import("node:http").ServerResponse) => void) {
  const server: Server = createServer((request, response) => {
    if (request.url === "/api/log/checkpoint") answer(response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return { url, close: () => new Promise<void>((done) => server.close(() => done())) };
}

describe("svc log watch keeps each issuer's history under its own log (issue 38 item 2)", () => {
  for (const origin of ["seals.example/seal-log/v2", "seals.example/Seal-Log"]) {
    it(`refuses a checkpoint under ${origin}, signed by the trusted key: LOG_INCONSISTENT (15), not "FIRST … kept"`, async () => {
      const note = signCheckpoint({ origin, size: 1, rootHash: Buffer.alloc(32, 7) }, key);
      const issuer = await fakeIssuer((response) => response.writeHead(200).end(note));
      try {
        const result = await watch(issuer);
        assert.equal(result.code, 15, result.stdout + result.stderr);
        assert.match(result.stdout, /^LOG_INCONSISTENT .* not of an issuer's log/);
        const kept = JSON.parse(await readFile(join(root, "config", "svc", "log-witness.json"), "utf8"));
        assert.equal(kept.logs[origin], undefined, "nothing kept under the variant origin");
      } finally {
        await issuer.close();
      }
    });
  }

  it("with a key pinned for the issuer, refuses its key signing another issuer's origin", async () => {
    const issuer = await fakeIssuer((response) =>
      response
        .writeHead(200)
        .end(
          signCheckpoint({ origin: "seals.example/seal-log", size: 1, rootHash: Buffer.alloc(32, 7) }, key),
        ),
    );
    try {
      const keys = join(root, "pinned-keys.json");
      const pem = exportPublicKeyPem(key.publicKey);
      const { toTrustedKey } = await import("@svc/core");
      await writeFile(
        keys,
        JSON.stringify({
          keys: [{ ...toTrustedKey(key.publicKey), public_key_pem: pem, issuer: issuer.url }],
        }),
      );
      let stdout = "";
      const code = await runCli(
        ["log", "watch", "--issuer", issuer.url, "--keys", keys],
        { stdout: (text) => (stdout += text), stderr: (text) => (stdout += text) },
        { HOME: root, XDG_CONFIG_HOME: join(root, "config") },
      );
      assert.equal(code, 15, stdout);
      assert.match(
        stdout,
        /the checkpoint is of the log seals\.example\/seal-log, not of 127\.0\.0\.1:\d+\/seal-log/,
      );
    } finally {
      await issuer.close();
    }
  });

  it("refuses a 300 MB checkpoint answer after 1 MiB, without reading the rest", async () => {
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const issuer = await fakeIssuer((response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const pump = () => {
        while (sent < 300 * 1024 * 1024 && !response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      response.on("close", () => undefined);
      pump();
    });
    try {
      const started = performance.now();
      const result = await watch(issuer);
      const ms = performance.now() - started;
      // ISSUER_RESPONSE_INVALID: the issuer answered, but not a checkpoint (exit 10, like unreachable)
      assert.equal(result.code, 10, result.stdout + result.stderr);
      assert.match(result.stderr, /over 1048576 bytes, not read further/);
      assert.ok(ms < 5_000, `took ${ms} ms`);
      assert.ok(sent < 64 * 1024 * 1024, `the issuer got to send ${sent} bytes`);
    } finally {
      await issuer.close();
    }
  });
});
