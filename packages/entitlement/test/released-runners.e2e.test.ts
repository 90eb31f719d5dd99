import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { createTempDir, type TempDir } from "@svc/testing";
import { startTestService, type TestService } from "./app-harness.ts";

// Issue 23 item 5: the issuer signs the image digest the job reports; it can also say which runner
// images it released (SVC_RELEASED_RUNNER_DIGESTS), and `svc seal verify --issuer` then refuses a seal
// naming any other with IMAGE_NOT_RELEASED.
const SVC_BIN = resolve(import.meta.dirname, "..", "..", "cli", "bin", "svc.ts");
const RELEASED = `sha256:${"1a".repeat(32)}`;
const INVENTED = `sha256:${"ee".repeat(32)}`;

describe("released runner digests (issue 23 item 5)", () => {
  let svc: TestService;
  let plain: TestService;
  let temp: TempDir;

  before(async () => {
    temp = await createTempDir("released-runners-");
    svc = await startTestService({ releasedRunnerDigests: [RELEASED] });
    plain = await startTestService();
  });
  after(async () => {
    await svc?.close();
    await plain?.close();
    await temp?.remove();
  });

  const seal = async (service: TestService, runId: string, digest: string | null) => {
    const admin = { "x-svc-admin-token": service.adminToken };
    await service.request("/api/entitlement/issue", { body: { principal: "rel", runs: 1 }, headers: admin });
    const token = await service.tokenFor("rel");
    const run = { run_id: runId, project_id: "alpha" };
    assert.equal((await service.request("/api/entitlement/consume", { token, body: run })).status, 200);
    await service.request("/api/entitlement/run_start", {
      token,
      body: {
        ...run,
        category_id: "ligand_only",
        inputs_sha256: "a".repeat(64),
        image: { reference: "registry/runner:1.0.0", digest },
      },
    });
    const done = await service.request("/api/entitlement/run_complete", {
      token,
      body: { run_id: runId, outputs_sha256: "b".repeat(64), run_manifest_sha256: "c".repeat(64) },
    });
    const path = join(temp.path, `${runId}.svg`);
    await writeFile(path, done.body.seal.seal_svg);
    return path;
  };

  /** `svc seal verify <file> --issuer <url>`, spawned: the service runs on this test's event loop. */
  const verify = async (path: string, issuer: string) => {
    const { SVC_TRUSTED_KEYS: _unset, ...rest } = process.env;
    const child = spawn(process.execPath, [SVC_BIN, "seal", "verify", path, "--issuer", issuer], {
      env: { ...rest, XDG_CONFIG_HOME: join(temp.path, "config") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stdout += String(chunk)));
    const [code] = (await once(child, "close")) as [number | null];
    return { code, stdout };
  };

  it("publishes the list at GET /api/seal/released-runners, null when none is configured", async () => {
    assert.deepEqual((await svc.request("/api/seal/released-runners")).body, { digests: [RELEASED] });
    assert.deepEqual((await plain.request("/api/seal/released-runners")).body, { digests: null });
  });

  it("svc seal verify --issuer passes a released image and refuses an invented digest or none with IMAGE_NOT_RELEASED", async () => {
    const released = await verify(await seal(svc, "run_rel_1", RELEASED), svc.url);
    assert.equal(released.code, 0, released.stdout);
    assert.match(released.stdout, /ok {3}runner_image: sha256:(1a)+ is a runner image/);
    assert.match(released.stdout, /attests \(job_reported\): the principal's job reported these hashes/);
    for (const [runId, digest] of [
      ["run_rel_2", INVENTED],
      ["run_rel_3", null],
    ] as const) {
      const refused = await verify(await seal(svc, runId, digest), svc.url);
      assert.equal(refused.code, 1, refused.stdout);
      assert.match(refused.stdout, /^INVALID /);
      assert.match(refused.stdout, /reason: IMAGE_NOT_RELEASED: runner_image: /);
    }
  });

  it("an issuer that publishes no list checks nothing", async () => {
    const result = await verify(await seal(plain, "run_rel_4", INVENTED), plain.url);
    assert.equal(result.code, 0, result.stdout);
    assert.doesNotMatch(result.stdout, /runner_image/);
  });
});
