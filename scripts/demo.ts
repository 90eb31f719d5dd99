// `npm run demo`: the README's first command. Starts the entitlement service on its embedded
// defaults, grants a run to a demo principal, stages examples/demo, runs the audit job through the
// full entitled lifecycle, verifies the seal offline and online, and stops everything it started.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { type TrustedKey, verifySealFolder } from "@svc/core";

const REPO = resolve(import.meta.dirname, "..");
const ENTITLEMENT_BIN = join(REPO, "packages", "entitlement", "bin", "svc-entitlement.ts");
const RUNNER_BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");
// SVC_DEMO_OUT moves the demo folder (its test uses a temporary one); default ./out/demo.
const OUT = resolve(process.env.SVC_DEMO_OUT ?? join(REPO, "out", "demo"));
const PRINCIPAL = "demo@example.com";
const PROJECT = "demo";

let service: ChildProcess | null = null;
let dataDir: string | null = null;

async function main(): Promise<number> {
  dataDir = await mkdtemp(join(tmpdir(), "svc-demo-entitlement-"));
  const adminToken = randomBytes(24).toString("hex");
  const serviceEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKENS: adminToken,
    SVC_SHUTDOWN_TIMEOUT_SEC: "2",
  };
  step("starting the entitlement service (embedded: SQLite, dev issuer) on a free loopback port");
  service = spawn(process.execPath, [ENTITLEMENT_BIN], {
    env: serviceEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForListening(service);
  step(`entitlement service at ${url}`);

  const grant = await postJson(
    `${url}/api/entitlement/issue`,
    { principal: PRINCIPAL, runs: 1, mode: "standard", reason: "npm run demo" },
    {
      "x-svc-admin-token": adminToken,
    },
  );
  step(`granted 1 standard run to ${PRINCIPAL} (runs remaining: ${grant.runs_remaining})`);
  const { stdout: token } = await promisify(execFile)(
    process.execPath,
    [ENTITLEMENT_BIN, "mint-dev-token", "--principal", PRINCIPAL, "--audience", url, "--data-dir", dataDir],
    { env: serviceEnv },
  );

  const inputRoot = join(OUT, "input");
  const outputRoot = join(OUT, "output");
  await rm(inputRoot, { recursive: true, force: true });
  await mkdir(outputRoot, { recursive: true });
  await cp(join(REPO, "examples", "demo"), join(inputRoot, PROJECT), { recursive: true });
  const runId = `run_${new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")}_${randomBytes(2).toString("hex")}`;
  step(`staged examples/demo as project "${PROJECT}"; running the audit job, run id ${runId}`);
  const runner = spawn(
    process.execPath,
    [
      RUNNER_BIN,
      "--project-id",
      PROJECT,
      "--run-id",
      runId,
      "--input-root",
      inputRoot,
      "--output-root",
      outputRoot,
      "--entitlement-url",
      url,
      "--auth-mode",
      "dev",
    ],
    // The token goes through the environment only, never on a command line or in a log.
    { env: { ...process.env, SVC_DEV_TOKEN: token.trim() }, stdio: ["ignore", "inherit", "inherit"] },
  );
  const [code] = (await once(runner, "exit")) as [number | null];
  if (code !== 0) {
    console.error(`\ndemo: the audit job exited ${code}; see its last line above for what to do.`);
    return 1;
  }

  const runDir = join(outputRoot, runId);
  const sealDir = join(runDir, "seal");
  const sealSvg = await readFile(join(sealDir, "seal.svg"), "utf8");
  const keys = ((await (await fetch(`${url}/api/seal/keys`)).json()) as { keys: TrustedKey[] }).keys;
  const offline = verifySealFolder(
    {
      sealSvg,
      sealJson: await readFile(join(sealDir, "seal.json"), "utf8"),
      sealSig: await readFile(join(sealDir, "seal.sig"), "utf8"),
    },
    keys,
  );
  const online = (await (
    await fetch(`${url}/api/seal/verify`, {
      method: "POST",
      headers: { "content-type": "image/svg+xml" },
      body: sealSvg,
    })
  ).json()) as { state: string; reason: string; issued_here: boolean };
  const summary = JSON.parse(await readFile(join(runDir, "results", "summary.json"), "utf8"));
  const rel = (path: string) => relative(process.cwd(), path) || ".";
  const plan = JSON.parse(await readFile(join(runDir, "plans", `${runId}_module_plan.json`), "utf8")) as {
    modules: { module_id: string; bucket: string; outcome: string; detail: string | null }[];
  };
  const required = plan.modules.filter((m) => m.bucket === "required");
  const missing = required.filter((m) => m.outcome !== "executed");
  console.log(`
Demo run ${runId} finished.
  summary   ${rel(join(runDir, "results", "summary.json"))}
  report    ${rel(join(runDir, "results", "report.html"))}
  seal      ${rel(sealDir)}/ (seal.svg, seal.json, seal.sig, public_key.pem, VERIFY.md)
  category  ${summary.category_id}; ${summary.compounds.total} compounds, ${summary.compounds.parsed} parsed; claim strength ${summary.claim_strength}
  coverage  ${required.length - missing.length} of ${required.length} required modules ran; ${missing.length} remain:
${missing.map((m) => `    - ${m.module_id}: ${m.detail ?? m.outcome}`).join("\n")}
  seal offline: ${offline.state}${offline.state === "VERIFIED" ? "" : ` (${offline.reason})`}
  seal online:  ${online.state}${online.issued_here ? " (issued by this service)" : ""}
  repro check:  bash ${rel(join(runDir, "repro_pack", "container", "verify.sh"))}
  verify later: svc seal verify ${rel(runDir)}`);
  return offline.state === "VERIFIED" && online.state === "VERIFIED" ? 0 : 1;
}

function step(message: string): void {
  console.log(`demo: ${message}`);
}

async function postJson(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} -> ${response.status}: ${text}`);
  return JSON.parse(text);
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let buffer = "";
    let errors = "";
    const timer = setTimeout(
      () => reject(new Error(`entitlement service did not start within 30 s\n${errors}`)),
      30_000,
    );
    child.stderr?.on("data", (chunk) => {
      errors += String(chunk);
    });
    child.stdout?.on("data", (chunk) => {
      buffer += String(chunk);
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.includes('"listening"')) continue;
        const url = (JSON.parse(line) as { url?: string }).url;
        if (url) {
          clearTimeout(timer);
          resolveUrl(url);
        }
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`entitlement service exited ${code}\n${errors}`));
    });
  });
}

async function stopService(): Promise<void> {
  const child = service;
  service = null;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = null;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopService().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`demo failed: ${(error as Error).message}`);
} finally {
  await stopService();
}
process.exit(exitCode);
