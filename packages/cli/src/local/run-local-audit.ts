import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CoreError, RUN_FILES, readRunFolder, verifySealFolder } from "@svc/core";
import { CliError, exitOf } from "../cli-error.ts";
import { explainProjectPath } from "../project/explain-project-path.ts";
import { fetchIssuerKeys } from "../trust/issuer-client.ts";
import { pinIssuerAndVerify } from "../trust/pin-issuer-and-verify.ts";
import { startEntitlementProcess } from "./entitlement-process.ts";
import { formatLocalRunReport } from "./local-run-report.ts";

/** Options of {@link runLocalAudit}. */
export interface LocalAuditOptions {
  /** A project folder holding `01_sources/sources.json`. */
  projectDir: string;
  /** Where `input/` and `output/` go. */
  outDir: string;
  /** Prefix of the progress lines (`demo` for `npm run demo`). */
  label: string;
  /** First word of the closing report (`Demo` for `npm run demo`). */
  title: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Print the outcome as one JSON object on stdout; progress then goes to stderr. */
  json?: boolean;
  /** The environment the services and the runner it starts inherit (the caller's, `CliConfig.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
}

const PRINCIPAL = "demo@example.com";

function binOf(packageName: string, bin: string): string {
  // The package entry is <package>/src/index.ts; its bins sit in <package>/bin/.
  return join(dirname(dirname(fileURLToPath(import.meta.resolve(packageName)))), "bin", bin);
}

/** A project id from the folder name, inside the run-id grammar (letters, digits, '.', '_', '-'). */
export function projectIdOf(projectDir: string): string {
  const cleaned = basename(resolve(projectDir))
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "")
    .slice(0, 63);
  return cleaned === "" ? "project" : cleaned;
}

async function assertProject(projectDir: string): Promise<void> {
  const wrongPath = await explainProjectPath(projectDir);
  if (wrongPath !== null) throw new CliError("INPUT_INVALID", wrongPath);
}

async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} -> ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The demo's machinery for any project (issue 14): starts the entitlement service on its embedded
 * defaults, grants one run, stages the project, runs the audit job through the entitled lifecycle,
 * verifies the seal offline and online, and stops what it started. Returns the exit code:
 * 0 when both verifications say VERIFIED.
 */
export async function runLocalAudit(options: LocalAuditOptions): Promise<number> {
  const projectDir = resolve(options.projectDir);
  await assertProject(projectDir);
  const progress = options.json ? options.stderr : options.stdout;
  const step = (message: string) => progress(`${options.label}: ${message}\n`);
  const dataDir = await mkdtemp(join(tmpdir(), "svc-local-entitlement-"));
  const adminToken = randomBytes(24).toString("hex");
  const serviceEnv = {
    ...options.env,
    PORT: "0",
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKENS: adminToken,
    SVC_SHUTDOWN_TIMEOUT_SEC: "2",
  };
  const entitlementBin = binOf("@svc/entitlement", "svc-entitlement.ts");
  step("starting the entitlement service (embedded: SQLite, dev issuer) on a free loopback port");
  const service = await startEntitlementProcess(entitlementBin, serviceEnv).catch(async (error: Error) => {
    await rm(dataDir, { recursive: true, force: true });
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `the embedded entitlement service did not start: ${error.message.split("\n")[0]}`,
    );
  });
  try {
    const url = service.url;
    step(`entitlement service at ${url}`);
    const grant = await postJson(
      `${url}/api/entitlement/issue`,
      { principal: PRINCIPAL, runs: 1, mode: "standard", reason: "local run" },
      { "x-svc-admin-token": adminToken },
    );
    step(`granted 1 standard run to ${PRINCIPAL} (runs remaining: ${grant.runs_remaining})`);
    const token = await mintToken(entitlementBin, url, dataDir, serviceEnv);

    const project = projectIdOf(projectDir);
    const outDir = resolve(options.outDir);
    const inputRoot = join(outDir, "input");
    const outputRoot = join(outDir, "output");
    await rm(join(inputRoot, project), { recursive: true, force: true });
    await mkdir(outputRoot, { recursive: true });
    await cp(projectDir, join(inputRoot, project), { recursive: true });
    const runId = `run_${new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "")}_${randomBytes(2).toString("hex")}`;
    step(`staged ${basename(projectDir)} as project "${project}"; running the audit job, run id ${runId}`);
    const code = await runRunner(
      [
        "--project-id",
        project,
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
      token,
      options,
    );
    if (code !== 0) {
      options.stderr(
        `\n${options.label}: the audit job exited ${code}; see its last line above for what to do.\n`,
      );
      return exitOf("INVALID");
    }

    const runDir = join(outputRoot, runId);
    const sealSvg = await readFile(join(runDir, RUN_FILES.sealSvg), "utf8");
    // The issuer's keys, checked with core's one trusted-key check (issue 15: never cast unchecked).
    const keys = await fetchIssuerKeys(new URL(url));
    const offline = verifySealFolder(
      {
        sealSvg,
        sealJson: await readFile(join(runDir, RUN_FILES.sealJson), "utf8"),
        sealSig: await readFile(join(runDir, RUN_FILES.sealSignature), "utf8"),
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
    // Trust comes from the issuer, never from the run folder (issue 9 §4): pin the service's keys
    // in a trust file beside the output, and verify the run with them as svc seal verify does.
    const trustFile = join(outDir, "trusted-keys.json");
    // One key file per run (issue 28 item 6): each local run starts a new embedded issuer with a new
    // key, so a shared file would break the repro check printed for every earlier run in this folder.
    const issuerPemFile = join(outDir, "issuer-keys", `${runId}.pem`);
    await mkdir(dirname(issuerPemFile), { recursive: true });
    const pinned = await pinIssuerAndVerify({ issuer: url, runDir, trustFile, issuerPemFile });
    // the run's files through core's reader, each checked against its schema (issue 41 item 1)
    const run = readRunFolder(runDir);
    const [summary, plan] = await Promise.all([run.summary(), run.modulePlan()]);
    if (summary?.status !== "completed" || plan === null)
      throw new CoreError(
        "RUN_FILE_INVALID",
        `${runDir}: a sealed run without a finished ${RUN_FILES.summary} and its module plan`,
      );
    const required = plan.modules.filter((m) => m.bucket === "required");
    const facts = {
      required: required.map(({ module_id, outcome, detail }) => ({ module_id, outcome, detail })),
      title: options.title,
      runId,
      runDir,
      summary,
      offline,
      online,
      issuer: url,
      pinned: { state: pinned.output.split("\n")[0]?.split(" ")[0] ?? "", keyIds: pinned.keyIds },
      trustFile,
      issuerPemFile,
    };
    options.stdout(
      options.json
        ? `${JSON.stringify({ runId, runDir, projectId: project, seal: { offline: offline.state, online: online.state, issuedHere: online.issued_here, pinnedIssuer: facts.pinned.state, trustFile }, summary: { category_id: summary.category_id, claim_strength: summary.claim_strength, compounds: summary.compounds } }, null, 2)}\n`
        : formatLocalRunReport(facts),
    );
    return offline.state === "VERIFIED" &&
      online.state === "VERIFIED" &&
      pinned.exitCode === exitOf("VERIFIED")
      ? exitOf("VERIFIED")
      : exitOf("INVALID");
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function mintToken(bin: string, url: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(
    process.execPath,
    [bin, "mint-dev-token", "--principal", PRINCIPAL, "--audience", url, "--data-dir", dataDir],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += String(chunk);
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new CliError("SERVICE_FAILED", "could not mint a dev identity token");
  return out.trim();
}

async function runRunner(args: string[], token: string, options: LocalAuditOptions): Promise<number | null> {
  const runner = spawn(process.execPath, [binOf("@svc/runner", "svc-runner.ts"), ...args], {
    // The token goes through the environment only, never on a command line or in a log.
    env: { ...options.env, SVC_DEV_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  runner.stdout.on("data", (chunk) => (options.json ? options.stderr : options.stdout)(String(chunk)));
  runner.stderr.on("data", (chunk) => options.stderr(String(chunk)));
  const [code] = (await once(runner, "exit")) as [number | null];
  return code;
}
