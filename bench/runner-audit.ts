// One entitled svc-runner audit of NCI first_5K.smi rows (Debian rdkit-data), as a customer runs
// it: shared by the runner bench (bench/runner.bench.ts) and the findings digest
// (bench/findings-digest.ts), so both measure and compare the very same run.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN_THREAD_NODE_FLAGS } from "../packages/runner/src/heap-limits.ts";
import type { TestEntitlement } from "../packages/runner/test/support/entitlement-harness.ts";

export const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const BIN = new URL("../packages/runner/bin/svc-runner.ts", import.meta.url).pathname;

/** NCI first_5K.smi as [smiles, id] pairs. */
export function nciRows(): string[][] {
  return readFileSync(NCI, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split(/\s+/));
}

export interface AuditOptions {
  readonly root: string;
  readonly service: TestEntitlement;
  readonly token: string;
  readonly rows: number;
  /** Worker threads (SVC_WORKERS); the runner's default (its CPU limit) when omitted. */
  readonly workers?: number;
  /** Node flags added before the runner's own (e.g. --cpu-prof). */
  readonly nodeFlags?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface AuditResult {
  readonly runDir: string;
  readonly seconds: number;
  /** Peak RSS (MiB) and CPU seconds (all threads) from the runner's last log line. */
  readonly rss: number;
  readonly cpu: number;
  readonly workers: string;
  readonly log: string;
}

/**
 * Stages `rows` rows of NCI (past 4,999 the set repeats with distinct ids `<id>_<repeat>`) and runs
 * one entitled audit; throws unless the run sealed. The run folder is left for the caller.
 */
export async function auditNci(options: AuditOptions, nci: readonly string[][]): Promise<AuditResult> {
  const { root, rows } = options;
  const project = `nci_${rows}`;
  const runId = `bench_${rows}_${Date.now()}`;
  const sources = join(root, "input", project, "01_sources");
  mkdirSync(sources, { recursive: true });
  const lines = Array.from({ length: rows }, (_, at) => {
    const [smiles, id] = nci[at % nci.length] as string[];
    return `${smiles} ${id}_${Math.floor(at / nci.length)}`;
  });
  writeFileSync(join(sources, "portfolio.smi"), `${lines.join("\n")}\n`);
  writeFileSync(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "portfolio.smi" }));
  const started = performance.now();
  const log = await runProcess(
    process.execPath,
    [
      ...(options.nodeFlags ?? []),
      // As the runner image starts it (NODE_OPTIONS): the main thread's heap limit.
      ...MAIN_THREAD_NODE_FLAGS,
      BIN,
      ...["--project-id", project, "--run-id", runId, "--input-root", join(root, "input")],
      ...[
        "--output-root",
        join(root, "output"),
        "--entitlement-url",
        options.service.url,
        "--auth-mode",
        "dev",
      ],
      ...["--log-format", "json"],
    ],
    {
      ...process.env,
      ...options.env,
      ...(options.workers === undefined ? {} : { SVC_WORKERS: String(options.workers) }),
      SVC_DEV_TOKEN: options.token,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const last = JSON.parse(log.trim().split("\n").at(-1) as string) as {
    max_rss_mib?: number;
    cpu_s?: number;
    seal_status?: string;
  };
  // Only a sealed run counts: a pre-seal (exit 10) also ends with the peak-memory line.
  if (last.max_rss_mib === undefined || last.seal_status !== "sealed")
    throw new Error(`svc-runner did not seal the run: ${log.slice(-2000)}`);
  return {
    runDir: join(root, "output", runId),
    seconds,
    rss: last.max_rss_mib,
    cpu: last.cpu_s ?? Number.NaN,
    workers: /"workers":(\d+)/.exec(log)?.[1] ?? "?",
    log,
  };
}

function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("close", () => resolve(stderr));
  });
}
