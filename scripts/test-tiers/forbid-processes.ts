// Preloaded into every fast-tier test file (`node --import ./scripts/test-tiers/forbid-processes.ts
// --test …`, see run-tier.ts): starting a child process there throws, naming the file and the rename
// that puts it in the e2e tier. The run-time half of the tier guard; `test-tiers.test.ts` is the
// source-reading half (issue 41 item 4). Only test files are guarded: the runner that starts them
// (no NODE_TEST_CONTEXT) must spawn.
import { syncBuiltinESMExports } from "node:module";
import { relative } from "node:path";

/** The child_process functions that start a process. */
export const PROCESS_STARTERS = [
  "spawn",
  "spawnSync",
  "exec",
  "execSync",
  "execFile",
  "execFileSync",
  "fork",
] as const;

/** The message a fast test that starts a process fails with. */
export function processInFastTierMessage(testFile: string, starter: string, command: unknown): string {
  const file = relative(process.cwd(), testFile);
  const e2e = file.replace(/\.test\.ts$/, ".e2e.test.ts");
  return (
    `${file} is a fast-tier test but started a process (${starter} ${String(command).slice(0, 120)}): ` +
    `a test that starts a process or external tool belongs in the e2e tier (or validation, for a native ` +
    `reference): git mv ${file} ${e2e}`
  );
}

/** Replaces each process starter of `target` with one that throws `processInFastTierMessage`. */
export function forbidProcesses(target: Record<string, unknown>, testFile: string): void {
  for (const starter of PROCESS_STARTERS)
    target[starter] = (command: unknown) => {
      throw new Error(processInFastTierMessage(testFile, starter, command));
    };
}

if (process.env.NODE_TEST_CONTEXT !== undefined && process.argv[1] !== undefined) {
  // Reached through getBuiltinModule: this module replaces the process starters, it never calls one.
  forbidProcesses(
    process.getBuiltinModule("node:child_process") as unknown as Record<string, unknown>,
    process.argv[1],
  );
  // ESM imports of node:child_process read the builtin's live exports: sync them with the patch.
  syncBuiltinESMExports();
}
