import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./repo-root.ts";

/**
 * How a stand-in answers a call: the first rule whose pattern (a bash ERE matched against the
 * program name and its arguments joined by single spaces) matches decides the exit code and output.
 */
export interface StandInRule {
  pattern: string;
  exitCode?: number;
  stdout?: string;
  /** A file whose bytes are written to stdout (for a tar stream). */
  stdoutFile?: string;
  stderr?: string;
}

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Every recorded call: program name first, then its arguments. */
  calls: string[][];
  /** What a call read on stdin (for `-i` and `-f -` calls), by call index. */
  stdinOf(index: number): Promise<Buffer>;
}

export interface StandIns {
  dir: string;
  run(
    script: string,
    args: string[],
    options?: { rules?: StandInRule[]; stdin?: string },
  ): Promise<ScriptRun>;
  cleanup(): Promise<void>;
}

// The stand-in logs argv (fields separated by the ASCII unit separator) and answers from the rules.
const STAND_IN = String.raw`#!/usr/bin/env bash
set -uo pipefail
program=$(basename "$0")
index=$(wc -l < "$SVC_RECORD" | tr -d ' ')
{ printf '%s' "$program"; for arg in "$@"; do printf '\x1f%s' "$arg"; done; printf '\n'; } >> "$SVC_RECORD"
reads_stdin=false
previous=""
for arg in "$@"; do
  if [ "$arg" = "-i" ] || { [ "$previous" = "-f" ] && [ "$arg" = "-" ]; }; then reads_stdin=true; fi
  previous=$arg
done
if $reads_stdin; then cat > "$SVC_RECORD.stdin.$index"; fi
line="$program $*"
while IFS=$'\t' read -r pattern code out file err; do
  [ -n "$pattern" ] || continue
  if [[ "$line" =~ $pattern ]]; then
    [ "$out" = "-" ] || printf '%b' "$out"
    [ "$file" = "-" ] || cat "$file"
    [ "$err" = "-" ] || printf '%b' "$err" >&2
    exit "$code"
  fi
done < "$SVC_RULES"
exit 0
`;

function field(value: string | undefined): string {
  if (value === undefined || value === "") return "-";
  return value.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\t", "\\t");
}

/**
 * Recording stand-ins for kubectl, helm and gcloud, put first on PATH for the operator scripts.
 * Each run gets a fresh record, so a test asserts the exact command sequence of one run.
 */
export async function createStandIns(): Promise<StandIns> {
  const dir = await mkdtemp(join(tmpdir(), "svc-stand-ins-"));
  const bin = join(dir, "bin");
  await mkdir(bin);
  for (const program of ["kubectl", "helm", "gcloud"]) {
    await writeFile(join(bin, program), STAND_IN);
    await chmod(join(bin, program), 0o755);
  }
  let runs = 0;
  return {
    dir,
    async run(script, args, options = {}) {
      runs += 1;
      const record = join(dir, `record-${runs}`);
      const rules = join(dir, `rules-${runs}`);
      await writeFile(record, "");
      await writeFile(
        rules,
        (options.rules ?? [])
          .map((r) =>
            [r.pattern, String(r.exitCode ?? 0), field(r.stdout), field(r.stdoutFile), field(r.stderr)].join(
              "\t",
            ),
          )
          .join("\n")
          .concat("\n"),
      );
      const result = await new Promise<{ code: number; stdout: string; stderr: string }>(
        (resolve, reject) => {
          const child = spawn("bash", [join(repoRoot, script), ...args], {
            cwd: dir,
            env: {
              PATH: `${bin}:${process.env.PATH ?? ""}`,
              HOME: dir,
              SVC_RECORD: record,
              SVC_RULES: rules,
              SVC_POLL_INTERVAL: "0",
            },
            // No stdin given: the script reads /dev/null (EOF), and nothing is written to a pipe
            // the script may already have closed by exiting (a `write EPIPE` race, issue 28 item 7).
            stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
          });
          let stdout = "";
          let stderr = "";
          child.stdout?.on("data", (chunk: Buffer) => {
            stdout += chunk.toString();
          });
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          child.on("error", reject);
          child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
          if (child.stdin) {
            // A script may exit before it reads its input (a usage error, say): EPIPE on our write is
            // then expected, and the exit code and output are what the test judges.
            child.stdin.on("error", (error: NodeJS.ErrnoException) => {
              if (error.code !== "EPIPE") reject(error);
            });
            child.stdin.end(options.stdin);
          }
        },
      );
      const calls = (await readFile(record, "utf8"))
        .split("\n")
        .filter((line) => line.length > 0)
        .map((line) => line.split("\x1f"));
      return { ...result, calls, stdinOf: (index) => readFile(`${record}.stdin.${index}`) };
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
