import { execFile } from "node:child_process";
import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after } from "node:test";
import { createTempDir, type TempDir } from "@svc/testing";

export const REPO = join(import.meta.dirname, "..", "..", "..", "..");
const BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs svc-runner as a child process (async, so in-process servers keep answering). The PDF print
 * (Chromium, seconds per run) is off unless a test asks for it with `SVC_REPORT_PDF`.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? "", SVC_REPORT_PDF: "off", ...env },
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// Every staged demo is removed when the importing test file ends: registered here, at module load,
// node:test attaches the hook to the file (from inside a before hook it would run right after it).
const staged: TempDir[] = [];
after(() => Promise.all(staged.map((dir) => dir.remove())));

/** A temp input root holding a copy of examples/demo as project `demo`, and an output root; removed when the test file ends. */
export async function stageDemo(): Promise<{ inputRoot: string; outputRoot: string; projectDir: string }> {
  const dir = await createTempDir("svc-runner-e2e-");
  staged.push(dir);
  const root = dir.path;
  const inputRoot = join(root, "input");
  const projectDir = join(inputRoot, "demo");
  await cp(join(REPO, "examples", "demo"), projectDir, { recursive: true });
  const outputRoot = join(root, "output");
  await mkdir(outputRoot, { recursive: true });
  return { inputRoot, outputRoot, projectDir };
}

/** One run of the staged demo project, as svc-runner's flags. */
export interface RunArgs {
  readonly runId: string;
  readonly staged: { readonly inputRoot: string; readonly outputRoot: string };
  /** Where the runner sends its entitlement calls: the service, or a recording proxy in front of it. */
  readonly entitlementUrl: string;
  /** The audience the token names, when the calls go through a proxy. */
  readonly audience?: string;
  readonly authMode?: "dev" | "k8s";
  readonly extra?: readonly string[];
}

/** The flags of a run of project `demo` (dev auth unless told). */
export function runArgs(run: RunArgs): string[] {
  return [
    ...["--project-id", "demo", "--run-id", run.runId],
    ...["--input-root", run.staged.inputRoot, "--output-root", run.staged.outputRoot],
    ...["--entitlement-url", run.entitlementUrl],
    ...(run.audience === undefined ? [] : ["--audience", run.audience]),
    ...["--auth-mode", run.authMode ?? "dev"],
    ...(run.extra ?? []),
  ];
}
