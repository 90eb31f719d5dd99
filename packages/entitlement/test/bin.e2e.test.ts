import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { promisify } from "node:util";
import { BIN, mintWithBin, spawnService } from "./spawn-service.ts";

const hex = (char: string) => char.repeat(64);

describe("svc-entitlement bin", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-entitlement-bin-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("reports every configuration problem at once and exits 2", async () => {
    const result = await promisify(execFile)(process.execPath, [BIN], {
      env: {
        ...process.env,
        PORT: "http",
        SVC_LOG_LEVEL: "loud",
        SVC_DATABASE_URL: "mysql://x",
        SVC_ADMIN_TOKENS: "short",
      },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((result as { code: number }).code, 2);
    const stderr = (result as { stderr: string }).stderr;
    for (const name of ["PORT", "SVC_LOG_LEVEL", "SVC_DATABASE_URL", "SVC_ADMIN_TOKENS"])
      assert.match(stderr, new RegExp(name));
  });

  it("mint-dev-token reads its settings through the config module: a bad setting is refused with exit 2", async () => {
    const result = await promisify(execFile)(
      process.execPath,
      [BIN, "mint-dev-token", "--principal", "p@example.com"],
      {
        env: { ...process.env, SVC_DATA_DIR: dataDir, SVC_PUBLIC_URL: "ftp://wrong" },
      },
    ).catch((error: { code: number; stderr: string; stdout: string }) => error);
    assert.equal((result as { code: number }).code, 2);
    assert.match(
      (result as { stderr: string }).stderr,
      /SVC_PUBLIC_URL must be an absolute http or https URL \(got "ftp:\/\/wrong"\)/,
    );
    assert.equal(
      (result as { stdout: string }).stdout,
      "",
      "no token is printed for an invalid configuration",
    );
    const token = await mintWithBin(["--principal", "p@example.com"], {
      SVC_DATA_DIR: dataDir,
      SVC_PUBLIC_URL: "http://audit.example/",
    });
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      aud: string;
      iss: string;
    };
    // The service strips the trailing slash of SVC_PUBLIC_URL; the token now names the same audience.
    assert.equal(claims.aud, "http://audit.example");
  });

  it("runs on embedded defaults, serves a full run with a minted dev token, shuts down gracefully, and never logs secrets", async () => {
    const service = await spawnService({ SVC_DATA_DIR: dataDir });
    const adminToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
    const token = await mintWithBin([
      "--principal",
      "dev@example.com",
      "--audience",
      service.url,
      "--data-dir",
      dataDir,
    ]);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      }));
    const run = { run_id: "run_bin_1", project_id: "p1", mode: "standard", module_id: "computational" };
    assert.equal(
      (
        await post(
          "/api/entitlement/issue",
          { principal: "dev@example.com", runs: 1 },
          { "x-svc-admin-token": adminToken },
        )
      ).status,
      200,
    );
    assert.equal((await post("/api/entitlement/check", run)).status, 200);
    assert.equal((await post("/api/entitlement/consume", run)).status, 200);
    const start = {
      ...run,
      category_id: "c1",
      inputs_sha256: hex("a"),
      image: { reference: "r:1", digest: null },
    };
    assert.equal((await post("/api/entitlement/run_start", start)).status, 200);
    const done = await post("/api/entitlement/run_complete", {
      run_id: run.run_id,
      outputs_sha256: hex("b"),
      run_manifest_sha256: hex("c"),
    });
    assert.equal(done.status, 200);
    const wrong = await post("/api/entitlement/check", run, { authorization: "Bearer x.y.z" });
    assert.equal(wrong.status, 401);

    // graceful shutdown: a request whose body is still arriving at SIGTERM still gets its answer
    const seal = String((done.body.seal as { seal_svg: string }).seal_svg);
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${service.url}/api/seal/verify`, {
        method: "POST",
        agent: false,
        headers: { "content-type": "image/svg+xml", "content-length": Buffer.byteLength(seal) },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      request.write(seal.slice(0, 100));
      const waitForServer = setInterval(() => {
        if (!service.output().includes('"url":"/api/seal/verify"')) return;
        clearInterval(waitForServer);
        service.child.kill("SIGTERM");
        setTimeout(() => request.end(seal.slice(100)), 300);
      }, 20);
    });
    const answered = await inFlight;
    assert.equal(answered.status, 200);
    assert.equal(JSON.parse(answered.body).state, "VERIFIED");
    assert.equal(await service.exited, 0);
    assert.match(service.output(), /"msg":"shutting down"/);

    const logs = service.output();
    assert.match(logs, /"msg":"listening"/);
    const signingKey = readFileSync(join(dataDir, "signing-key.pem"), "utf8");
    const devKey = JSON.parse(readFileSync(join(dataDir, "dev-issuer-key.json"), "utf8")) as {
      privateJwk: { d: string };
    };
    const secrets = {
      "ID token": token,
      "ID token signature": token.split(".")[2] as string,
      "admin token": adminToken,
      "signing key": signingKey.split("\n")[1] as string,
      "dev issuer private key": devKey.privateJwk.d,
    };
    for (const [name, secret] of Object.entries(secrets))
      assert.equal(logs.includes(secret), false, `${name} leaked into logs`);
  });
});
