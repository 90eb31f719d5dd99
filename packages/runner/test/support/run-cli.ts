import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO = join(import.meta.dirname, "..", "..", "..", "..");
const BIN = join(REPO, "packages", "runner", "bin", "svc-runner.ts");

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs svc-runner as a child process (async, so in-process servers keep answering). */
export function runCli(
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, BIN, ...args],
      { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A temp input root holding a copy of examples/demo as project `demo`, and an output root. */
export async function stageDemo(): Promise<{ inputRoot: string; outputRoot: string; projectDir: string }> {
  const root = await mkdtemp(join(tmpdir(), "svc-runner-e2e-"));
  const inputRoot = join(root, "input");
  const projectDir = join(inputRoot, "demo");
  await cp(join(REPO, "examples", "demo"), projectDir, { recursive: true });
  const outputRoot = join(root, "output");
  await mkdir(outputRoot, { recursive: true });
  return { inputRoot, outputRoot, projectDir };
}
