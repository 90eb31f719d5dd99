import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "@svc/core";

// The real entitlement service, started as its own process on a free loopback port (as the demo does).
const REPO = resolve(import.meta.dirname, "..", "..", "..");
const ENTITLEMENT_BIN = join(REPO, "packages", "entitlement", "bin", "svc-entitlement.ts");
const SVC_BIN = join(REPO, "packages", "cli", "bin", "svc.ts");
const adminToken = randomBytes(16).toString("hex");
let root: string;
let service: ChildProcess;
let url: string;
let sealPath: string;
let sealId: string;

function svc(args: string[]) {
  const { SVC_TRUSTED_KEYS: _unset, ...rest } = process.env;
  const env = { ...rest, XDG_CONFIG_HOME: join(root, "config") };
  const result = spawnSync(process.execPath, [SVC_BIN, ...args], { encoding: "utf8", env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
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

before(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-cli-issuer-"));
  const env = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: join(root, "data"),
    SVC_ADMIN_TOKENS: adminToken,
    SVC_SHUTDOWN_TIMEOUT_SEC: "2",
  };
  service = spawn(process.execPath, [ENTITLEMENT_BIN], { env, stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise<string>((resolveUrl, reject) => {
    let buffer = "";
    service.stdout?.on("data", (chunk) => {
      buffer += String(chunk);
      const found =
        /"msg":"listening"[^\n]*"url":"(http:\/\/[^"]+)"|"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/.exec(
          buffer,
        );
      if (found) resolveUrl((found[1] ?? found[2]) as string);
    });
    service.on("exit", (code) => reject(new Error(`entitlement service exited ${code}`)));
  });
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
  if (service && service.exitCode === null) {
    const exited = once(service, "exit");
    service.kill("SIGTERM");
    await exited;
  }
  await rm(root, { recursive: true, force: true });
});

describe("svc with --issuer, against the real entitlement service", () => {
  it("trusts the issuer's published keys, prints the key id to pin, and asks about revocation", () => {
    const result = svc(["seal", "verify", sealPath, "--issuer", url]);
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
    const added = svc(["trust", "add", "--issuer", url]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(
      added.stdout,
      /trusted ed25519:[0-9a-f]{32} \(from http:\/\/127\.0\.0\.1:\d+\/api\/seal\/keys\)/,
    );
    assert.equal(svc(["seal", "verify", sealPath]).code, 0);
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

  it("reports REVOKED (exit 6) once the issuer revoked the seal; offline it still verifies", async () => {
    await call(
      "/api/seal/revoke",
      { seal_id: sealId, reason: "issued in error" },
      { "x-svc-admin-token": adminToken },
    );
    const result = svc(["seal", "verify", sealPath, "--issuer", url]);
    assert.equal(result.code, 6, result.stdout + result.stderr);
    assert.match(result.stdout, /^REVOKED /);
    assert.match(
      result.stdout,
      /reason: REVOKED: revocation: revoked by http:\/\/127\.0\.0\.1:\d+ at .*: issued in error/,
    );
    assert.equal(svc(["seal", "verify", sealPath]).code, 0, "only the issuer knows about a revocation");
    const render = svc(["seal", "render", sealPath, "-o", join(root, "revoked.svg"), "--issuer", url]);
    assert.equal(render.code, 6, render.stdout);
  });

  it("an issuer unreachable for its keys is a one-line error (exit 2), never VERIFIED", async () => {
    const result = svc(["seal", "verify", sealPath, "--issuer", "http://127.0.0.1:9"]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim().split("\n").length, 1);
    assert.match(result.stderr, /ISSUER|127\.0\.0\.1:9/);
  });
});
