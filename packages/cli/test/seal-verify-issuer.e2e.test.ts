import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "@svc/core";
import { runCli } from "../src/program.ts";

// The real entitlement service, started as its own process on a free loopback port (as the demo does).
const REPO = resolve(import.meta.dirname, "..", "..", "..");
const ENTITLEMENT_BIN = join(REPO, "packages", "entitlement", "bin", "svc-entitlement.ts");
const adminToken = randomBytes(16).toString("hex");
let root: string;
let service: ChildProcess;
let url: string;
let sealPath: string;
let sealId: string;

/**
 * `svc <args>` as bin/svc.ts runs it (runCli with the argv, both streams and an environment; its
 * result is the exit code), in this process: a process per command cost ~0.6 CPU-s of start-up
 * (issue 41 item 4). The entitlement service stays a process of its own.
 */
async function svc(args: string[]) {
  const { SVC_TRUSTED_KEYS: _unset, ...rest } = process.env;
  const env = { ...rest, XDG_CONFIG_HOME: join(root, "config") };
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, env);
  return { code, stdout, stderr };
}

async function call(path: string, body: unknown, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(json)}`);
  return json;
}

/** Starts svc-entitlement on a free loopback port with its data in `dataDir`; resolves its URL once listening. */
async function startEntitlement(dataDir: string, extraEnv: Record<string, string> = {}) {
  const env = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKENS: adminToken,
    SVC_SHUTDOWN_TIMEOUT_SEC: "2",
    ...extraEnv,
  };
  const child = spawn(process.execPath, [ENTITLEMENT_BIN], { env, stdio: ["ignore", "pipe", "inherit"] });
  const listening = await new Promise<string>((resolveUrl, reject) => {
    let buffer = "";
    child.stdout?.on("data", (chunk) => {
      buffer += String(chunk);
      const found =
        /"msg":"listening"[^\n]*"url":"(http:\/\/[^"]+)"|"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/.exec(
          buffer,
        );
      if (found) resolveUrl((found[1] ?? found[2]) as string);
    });
    child.on("exit", (code) => reject(new Error(`entitlement service exited ${code}`)));
  });
  return { child, url: listening, env };
}

async function stopEntitlement(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-issuer-"));
  let env: NodeJS.ProcessEnv;
  ({ child: service, url, env } = await startEntitlement(join(root, "data")));
  const principal = "auditor@example.com";
  await call("/api/entitlement/issue", { principal, runs: 1 }, { "x-svc-admin-token": adminToken });
  const token = execFileSync(
    process.execPath,
    [
      ENTITLEMENT_BIN,
      "mint-dev-token",
      "--principal",
      principal,
      "--audience",
      url,
      "--data-dir",
      join(root, "data"),
    ],
    { env, encoding: "utf8" },
  ).trim();
  const auth = { authorization: `Bearer ${token}` };
  const run = { run_id: "run_cli_issuer", project_id: "demo", mode: "standard", module_id: "computational" };
  await call("/api/entitlement/consume", run, auth);
  await call(
    "/api/entitlement/run_start",
    {
      ...run,
      category_id: "ligand_only",
      inputs_sha256: sha256Hex("in"),
      image: { reference: "runner:1", digest: null },
    },
    auth,
  );
  const complete = (await call(
    "/api/entitlement/run_complete",
    { run_id: run.run_id, outputs_sha256: sha256Hex("out"), run_manifest_sha256: sha256Hex("manifest") },
    auth,
  )) as { seal: { seal_id: string; seal_svg: string } };
  sealId = complete.seal.seal_id;
  sealPath = join(root, "seal.svg");
  await writeFile(sealPath, complete.seal.seal_svg);
});

after(async () => {
  if (service) await stopEntitlement(service);
  await rm(root, { recursive: true, force: true });
});

describe("svc with --issuer, against the real entitlement service", () => {
  it("trusts the issuer's published keys, prints the key id to pin, and asks about revocation", async () => {
    const result = await svc(["seal", "verify", sealPath, "--issuer", url]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^VERIFIED /);
    assert.match(result.stdout, /trust: issuer http:\/\/127\.0\.0\.1:\d+ \(keys ed25519:[0-9a-f]{32}\)/);
    assert.match(
      result.stdout,
      /ok {3}revocation: http:\/\/127\.0\.0\.1:\d+ issued this seal and has not revoked it/,
    );
    assert.match(result.stdout, /svc trust add --issuer http:\/\/127\.0\.0\.1/);
  });

  it("svc trust add --issuer pins the keys for the issuer they sign for: verify then needs no option", async () => {
    const added = await svc(["trust", "add", "--issuer", url]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(
      added.stdout,
      /trusted ed25519:[0-9a-f]{32} \(from http:\/\/127\.0\.0\.1:\d+\/api\/seal\/keys\)/,
    );
    assert.equal((await svc(["seal", "verify", sealPath])).code, 0);
    // issue 23 item 8: each key is pinned for the issuer its seals name
    const pinned = JSON.parse(await readFile(join(root, "config", "svc", "trusted-keys.json"), "utf8"));
    const sealed = JSON.parse(
      Buffer.from(
        /<svcseal:payload[^>]*>([^<]*)/.exec(readFileSync(sealPath, "utf8"))?.[1] ?? "",
        "base64url",
      ).toString("utf8"),
    );
    assert.deepEqual(
      pinned.keys.map((entry: { issuer?: string }) => entry.issuer),
      [sealed.issuer],
    );
  });

  it("svc trust add --issuer B refuses a key B publishes for another issuer (KEY_ISSUER_MISMATCH, exit 2) and pins nothing (issue 38 item 3)", async () => {
    const trustFile = join(root, "config", "svc", "trusted-keys.json");
    const pinnedBefore = await readFile(trustFile, "utf8");
    // issuer B names issuer A (this test's issuer) in its seals and publishes its key "for A"
    const b = await startEntitlement(join(root, "data-b"), { SVC_ISSUER_NAME: url });
    try {
      const keysB = (await (await fetch(`${b.url}/api/seal/keys`)).json()) as { keys: { issuer: string }[] };
      assert.deepEqual(
        keysB.keys.map((key) => key.issuer),
        [url],
      );
      const refused = await svc(["trust", "add", "--issuer", b.url]);
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.equal(refused.stderr.trim().split("\n").length, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `publishes key ed25519:[0-9a-f]{32} for issuer ${url}, not for ${b.url}.*KEY_ISSUER_MISMATCH`,
        ),
      );
      assert.equal(await readFile(trustFile, "utf8"), pinnedBefore, "nothing is pinned");
      // the same issuer given with a trailing slash is the same issuer: A's own keys still pin
      assert.equal((await svc(["trust", "add", "--issuer", `${url}/`])).code, 0);
    } finally {
      await stopEntitlement(b.child);
    }
  });

  it("reports REVOKED (exit 6) once the issuer revoked the seal; offline it still verifies", async () => {
    await call(
      "/api/seal/revoke",
      { seal_id: sealId, reason: "issued in error" },
      { "x-svc-admin-token": adminToken },
    );
    const result = await svc(["seal", "verify", sealPath, "--issuer", url]);
    assert.equal(result.code, 6, result.stdout + result.stderr);
    assert.match(result.stdout, /^REVOKED /);
    assert.match(
      result.stdout,
      /reason: REVOKED: revocation: revoked by http:\/\/127\.0\.0\.1:\d+ at .*: issued in error/,
    );
    assert.equal(
      (await svc(["seal", "verify", sealPath])).code,
      0,
      "only the issuer knows about a revocation",
    );
    const render = await svc(["seal", "render", sealPath, "-o", join(root, "revoked.svg"), "--issuer", url]);
    assert.equal(render.code, 6, render.stdout);
  });

  it("an issuer unreachable for its keys is a one-line error (exit 10, ISSUER_UNREACHABLE's one exit), never VERIFIED", async () => {
    const result = await svc(["seal", "verify", sealPath, "--issuer", "http://127.0.0.1:9"]);
    assert.equal(result.code, 10);
    assert.equal(result.stderr.trim().split("\n").length, 1);
    assert.match(result.stderr, /ISSUER|127\.0\.0\.1:9/);
  });
});
