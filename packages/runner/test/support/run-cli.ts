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
