import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempDir, makeTempDir, startKubeApiDouble, type TempDir, writeKubeconfig } from "@svc/testing";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, "..", "bin", "svc-preflight.ts");
const TESTER = join(here, "..", "..", "..", "apptest", "tester", "tester.sh");

// HOME dirs of spawned services, removed when the file's tests end (registered at file level).
const homes: TempDir[] = [];
after(() => Promise.all(homes.map((home) => home.remove())));

async function cleanEnv(extra: Record<string, string>): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.KUBECONFIG;
  delete env.KUBERNETES_SERVICE_HOST;
  delete env.POD_NAMESPACE;
  for (const name of Object.keys(env))
    if (name.startsWith("SVC_") || name === "K8S_API_TOKENS") delete env[name];
  const home = await createTempDir("svc-home-");
  homes.push(home);
  return { ...env, HOME: home.path, ...extra };
}

/** Starts the real `svc-preflight` bin on port 0 and resolves its base URL from the listening log line. */
async function startBin(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [BIN], { env, stdio: ["ignore", "pipe", "pipe"] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    // Generous: a loaded CI machine can take well over 15 s to start a TypeScript bin.
    const timer = setTimeout(() => reject(new Error(`no listening line: ${output}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, baseUrl };
}

// Asynchronous: the Kubernetes API double answers from this process while the tester runs.
function runTester(baseUrl: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", [TESTER], {
      env: { ...process.env, APP_BASE_URL: baseUrl, TESTER_TIMEOUT_SEC: "5" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("apptest/tester/tester.sh against the running service", () => {
  let service: { child: ChildProcess; baseUrl: string };
  before(async () => {
    // No Kubernetes configuration at all: the real bin must still start and serve the open endpoints.
    service = await startBin(
      await cleanEnv({
        PORT: "0",
        HOST: "127.0.0.1",
        SVC_API_TOKEN: "tester-token-0123456789",
        SVC_OUTPUT_ROOT: tmpdir(), // only read by requests the tester does not make
      }),
    );
  });
  after(() => {
    service.child.kill("SIGTERM");
  });

  test("fails with the reason when the service cannot reach Kubernetes", async () => {
    const result = await runTester(service.baseUrl);
    assert.notEqual(result.status, 0);
    assert.equal(result.stdout.match(/^PASS /gm)?.length, 3, result.stdout);
    assert.match(result.stderr, /FAIL kubernetes reachable/);
    assert.match(result.stderr, /\/api\/ready: HTTP 503: Kubernetes is not configured/);
  });

  test("passes all four checks and exits 0 against a service that reaches its cluster", async (t) => {
    const double = await startKubeApiDouble({ token: "tester-sa-token" });
    t.after(() => double.close());
    const dir = await makeTempDir("svc-tester-kube-", t);
    const kubeconfig = await writeKubeconfig({ server: double.url, token: "tester-sa-token", dir });
    const withKube = await startBin(
      await cleanEnv({
        PORT: "0",
        HOST: "127.0.0.1",
        SVC_API_TOKEN: "tester-token-0123456789",
        SVC_OUTPUT_ROOT: dir,
        KUBECONFIG: kubeconfig,
        POD_NAMESPACE: "svc",
      }),
    );
    t.after(() => withKube.child.kill("SIGTERM"));
    const result = await runTester(withKube.baseUrl);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.match(/^PASS /gm)?.length, 4, result.stdout);
  });

  test("exits non-zero when a check fails", async () => {
    const impostor = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(req.url === "/api/health" ? '{"status":"degraded"}' : '{"inCluster":false,"modules":[]}');
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const { port } = impostor.address() as AddressInfo;
    try {
      const result = await runTester(`http://127.0.0.1:${port}`);
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /FAIL health status ok/);
      assert.match(result.stderr, /FAIL modules has computational/);
    } finally {
      impostor.close();
    }
    const unreachable = await runTester("http://127.0.0.1:1");
    assert.notEqual(unreachable.status, 0);
  });

  test("is shellcheck-clean", (context) => {
    const probe = spawnSync("shellcheck", ["--version"]);
    if (probe.error) {
      // CI installs shellcheck (.ci/run): there its absence is a failure, not a silent skip.
      assert.notEqual(process.env.CI, "true", "shellcheck is not installed (apt-get install shellcheck)");
      context.skip("shellcheck is not installed (apt-get install shellcheck)");
      return;
    }
    const result = spawnSync("shellcheck", [TESTER], { encoding: "utf8" });
    assert.equal(result.status, 0, result.stdout);
  });
});

test("the bin refuses to start on invalid configuration, listing every problem, exit code 2", async () => {
  const result = spawnSync(process.execPath, [BIN], {
    env: await cleanEnv({ PORT: "99999", SVC_STORAGE_MODE: "nfs" }),
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /PORT/);
  assert.match(result.stderr, /SVC_STORAGE_MODE/);
  assert.match(result.stderr, /no token is configured/);
});
