// Smoke tests in the built images (issue 28 item 1): what a customer installs, run as the charts run
// it — non-root, read-only root file system, every capability dropped, a tmpfs /tmp and the chart's
// volumes — on host networking (never podman's default bridge, which rewrites the firewall).
// Gated: they need the images tools/build-images.sh builds and the private podman store it made;
// tools/smoke-images.sh sets SVC_IMAGE_TESTS=1 and the store's environment, and .ci/run calls it.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { exitOf, pinIssuerAndVerify } from "@svc/cli";
import { createTempDir, findFreePort, startKubeApiDouble, type TempDir, writeKubeconfig } from "@svc/testing";
import { repoRoot } from "../support/repo-root.ts";

const run = promisify(execFile);
const enabled = process.env.SVC_IMAGE_TESTS === "1";
const skip = enabled
  ? false
  : "set SVC_IMAGE_TESTS=1 after tools/build-images.sh (tools/smoke-images.sh does both)";
const TAG = process.env.SVC_IMAGE_TAG ?? "dev";
const image = (name: string) => `localhost/svc-${name}:${TAG}`;
// The images' user (Dockerfiles' USER, the charts' runAsUser).
const UID = 10001;
// The charts' securityContext (runAsNonRoot, readOnlyRootFilesystem, drop ALL, no privilege
// escalation) and their emptyDir at /tmp.
const CHART_SECURITY = [
  "--pull=never",
  "--network=host",
  `--user=${UID}:${UID}`,
  "--read-only",
  "--read-only-tmpfs=false",
  "--tmpfs=/tmp:rw,size=256m,mode=1777",
  "--cap-drop=ALL",
  "--security-opt=no-new-privileges",
];
const PRINCIPAL = "demo@example.com";

async function podman(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { stdout } = await run("podman", args, { env, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** A dir the images' user can write: temp dirs are 0700 root-owned. */
async function dirFor(temp: TempDir, name: string, writable: boolean): Promise<string> {
  const dir = join(temp.path, name);
  await mkdir(dir, { recursive: true });
  await chmod(temp.path, 0o755);
  await chmod(dir, 0o755);
  if (writable) await chown(dir, UID, UID);
  return dir;
}

/** Polls `url` until it answers 200 (a container starts a TypeScript bin: generous on a loaded machine). */
async function waitFor(url: string, container: string): Promise<unknown> {
  const deadline = Date.now() + 120_000;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return await response.json();
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const logs = await podman(["logs", container]).catch((error: Error) => error.message);
  throw new Error(`${url} never answered 200 (last: ${last}); container log:\n${logs}`);
}

interface Service {
  url: string;
  name: string;
}

async function startContainer(
  name: string,
  args: string[],
  healthPath: string,
  port: number,
): Promise<Service> {
  const container = `svc-smoke-${name}-${randomBytes(3).toString("hex")}`;
  await podman(["run", "-d", "--rm", "--name", container, ...CHART_SECURITY, ...args]);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}${healthPath}`, container);
  return { url, name: container };
}

async function stopContainer(service: Service | undefined): Promise<void> {
  if (service) await podman(["rm", "-f", "-t", "5", service.name]).catch(() => undefined);
}

describe("the built images", { skip }, () => {
  let temp: TempDir;
  let entitlement: Service | undefined;
  const adminToken = randomBytes(24).toString("hex");

  before(async () => {
    temp = await createTempDir("svc-images-");
    const data = await dirFor(temp, "entitlement-data", true);
    const port = await findFreePort();
    entitlement = await startContainer(
      "entitlement",
      [
        "-e",
        `PORT=${port}`,
        "-e",
        "HOST=127.0.0.1",
        "-e",
        `SVC_ADMIN_TOKENS=${adminToken}`,
        "-v",
        `${data}:/var/lib/svc-entitlement`,
        image("entitlement"),
      ],
      "/api/ready",
      port,
    );
  });

  after(async () => {
    await stopContainer(entitlement);
    await temp?.remove();
  });

  test("every image runs as the non-root user 10001", async () => {
    for (const name of ["entitlement", "preflight", "runner"])
      assert.equal(
        await podman(["image", "inspect", "--format", "{{.Config.User}}", image(name)]),
        `${UID}:${UID}`,
      );
  });

  test("the entitlement image serves /api/ready on a read-only root file system", async () => {
    assert.ok(entitlement);
    const response = await fetch(`${entitlement.url}/api/ready`);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(await podman(["exec", entitlement.name, "id", "-u"]), String(UID));
  });

  test("the preflight image serves /api/health, and apptest/tester/tester.sh passes against it wired to a Kubernetes API double", async (t) => {
    const double = await startKubeApiDouble({ token: "image-sa-token" });
    t.after(() => double.close());
    const kubeDir = await dirFor(temp, "kube", false);
    const kubeconfig = await writeKubeconfig({ server: double.url, token: "image-sa-token", dir: kubeDir });
    await chmod(kubeconfig, 0o644);
    const output = await dirFor(temp, "preflight-output", true);
    const port = await findFreePort();
    const preflight = await startContainer(
      "preflight",
      [
        "-e",
        `PORT=${port}`,
        "-e",
        "HOST=127.0.0.1",
        "-e",
        "SVC_API_TOKEN=image-tester-token-0123456789",
        "-e",
        "POD_NAMESPACE=svc",
        "-e",
        "KUBECONFIG=/var/run/kube/config",
        "-v",
        `${kubeconfig}:/var/run/kube/config:ro`,
        "-v",
        `${output}:/data/output`,
        image("preflight"),
      ],
      "/api/health",
      port,
    );
    t.after(() => stopContainer(preflight));
    const health = (await (await fetch(`${preflight.url}/api/health`)).json()) as { status: string };
    assert.equal(health.status, "ok");
    const tester = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn("bash", [join(repoRoot, "apptest", "tester", "tester.sh")], {
        env: { ...process.env, APP_BASE_URL: preflight.url, TESTER_TIMEOUT_SEC: "10" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += String(chunk);
      });
      child.stderr.on("data", (chunk) => {
        out += String(chunk);
      });
      child.on("close", (code) => resolve({ code, out }));
    });
    assert.equal(tester.code, 0, tester.out);
    assert.equal(tester.out.match(/^PASS /gm)?.length, 4, tester.out);
  });

  test("the runner image runs the demo portfolio against the entitlement image, and the seal verifies with the pinned issuer key", async () => {
    assert.ok(entitlement);
    const url = entitlement.url;
    // The demo's lifecycle (packages/cli run-local-audit.ts), with both services in their images.
    const grant = await fetch(`${url}/api/entitlement/issue`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-admin-token": adminToken },
      body: JSON.stringify({ principal: PRINCIPAL, runs: 1, mode: "standard", reason: "image smoke test" }),
    });
    assert.equal(grant.status, 200, await grant.clone().text());
    const token = await podman([
      "exec",
      entitlement.name,
      "node",
      "packages/entitlement/bin/svc-entitlement.ts",
      "mint-dev-token",
      "--principal",
      PRINCIPAL,
      "--audience",
      url,
      "--data-dir",
      "/var/lib/svc-entitlement",
    ]);
    const input = await dirFor(temp, "input", false);
    const output = await dirFor(temp, "output", true);
    await cp(join(repoRoot, "examples", "demo"), join(input, "demo"), { recursive: true });
    await run("chmod", ["-R", "a+rX", input]);
    const runId = `run_images_${randomBytes(3).toString("hex")}`;
    // The token reaches the container through the environment only (`-e NAME` copies it), never argv.
    const runner = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        "podman",
        [
          "run",
          "--rm",
          ...CHART_SECURITY,
          "-e",
          "SVC_DEV_TOKEN",
          "-v",
          `${input}:/data/input:ro`,
          "-v",
          `${output}:/data/output`,
          image("runner"),
          "--project-id",
          "demo",
          "--run-id",
          runId,
          "--input-root",
          "/data/input",
          "--output-root",
          "/data/output",
          "--entitlement-url",
          url,
          "--auth-mode",
          "dev",
        ],
        { env: { ...process.env, SVC_DEV_TOKEN: token }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += String(chunk);
      });
      child.stderr.on("data", (chunk) => {
        out += String(chunk);
      });
      child.on("close", (code) => resolve({ code, out }));
    });
    assert.equal(runner.code, 0, runner.out);
    const runDir = join(output, runId);
    const pinned = await pinIssuerAndVerify({
      issuer: url,
      runDir,
      trustFile: join(temp.path, "trusted-keys.json"),
      issuerPemFile: join(temp.path, "issuer-public-key.pem"),
    });
    assert.equal(pinned.exitCode, exitOf("VERIFIED"), pinned.output);
    assert.match(pinned.output, /^VERIFIED/);
    const online = (await (
      await fetch(`${url}/api/seal/verify`, {
        method: "POST",
        headers: { "content-type": "image/svg+xml" },
        body: await readFile(join(runDir, "seal", "seal.svg"), "utf8"),
      })
    ).json()) as { state: string };
    assert.equal(online.state, "VERIFIED");
    // The runner image carries Chromium for the printed report (SVC_CHROMIUM_PATH).
    const pdf = await readFile(join(runDir, "results", "report.pdf"));
    assert.equal(pdf.subarray(0, 5).toString("latin1"), "%PDF-");
  });
});
