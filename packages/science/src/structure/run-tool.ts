import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** One external program call, as recorded for `repro_pack/environment/` (issue 25 item 2). */
export interface ToolInvocation {
  readonly tool: string;
  /** The exact argument vector, program first. */
  readonly argv: readonly string[];
}

export interface ToolRunOptions {
  /** Wall-clock budget: past it the process is killed (SIGKILL). */
  readonly timeoutMs?: number;
  /**
   * CPU-time budget in seconds, summed over the program's threads (RLIMIT_CPU, set by `ulimit -S -t`
   * in a POSIX sh that then execs the program): the kernel stops it with SIGXCPU. Unlike wall-clock
   * time it does not grow when other processes share the cores, so whether a program finishes within
   * it does not depend on the machine's load (issue 43).
   */
  readonly cpuSeconds?: number;
  readonly input?: string;
  readonly cwd?: string;
}

export interface ToolRun {
  /** Exit code, or null when the process was killed or could not start. */
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /**
   * CPU time the program used, ms, as last read from /proc/<pid>/stat while it ran (every 250 ms, so
   * up to that much short); null when never read (a program that ended within the first read).
   */
  readonly cpuMs: number | null;
  /** Set when the program could not be started at all (ENOENT, EACCES). */
  readonly spawnError: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/**
 * Runs a program to completion without a shell. Never throws: a crash, a signal, a time-out or a
 * missing program is reported in the result, so callers turn it into one compound's `unassessed`.
 * On time-out the process is killed with SIGKILL (Vina does not stop on SIGTERM mid-search).
 */
export function runTool(
  command: string,
  args: readonly string[],
  options: ToolRunOptions = {},
): Promise<ToolRun> {
  const started = performance.now();
  // sh -c SCRIPT ARG0 ARGS…: "$0" is the limit, "$@" the program and its arguments, passed unquoted
  // through no shell parsing. Only the soft limit, so the kernel sends SIGXCPU (a hard limit equal to
  // it would be SIGKILL, indistinguishable from other kills).
  const [program, argv] =
    options.cpuSeconds === undefined
      ? [command, [...args]]
      : ["/bin/sh", ["-c", 'ulimit -S -t "$0" && exec "$@"', String(options.cpuSeconds), command, ...args]];
  return new Promise((resolve) => {
    const child = spawn(program, argv, {
      cwd: options.cwd,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let spawnError: string | null = null;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, options.timeoutMs);
    // The CPU the program has used so far (after the exec, the same pid): callers that share one
    // budget over several programs deduct it (the physics modules).
    let cpuMs: number | null = null;
    const poll = setInterval(() => {
      if (child.pid !== undefined) cpuMs = processCpuMs(child.pid) ?? cpuMs;
    }, CPU_POLL_MS);
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      spawnError = error.message;
    });
    if (options.input !== undefined) {
      child.stdin?.on("error", () => {});
      child.stdin?.end(options.input);
    }
    child.on("close", (status, signal) => {
      if (timer) clearTimeout(timer);
      clearInterval(poll);
      // Through sh, a program that cannot be started is sh's exit 127 (not found) or 126 (not
      // executable, POSIX "Command Search and Execution"), not a spawn error: report it as one.
      if (options.cpuSeconds !== undefined && (status === 127 || status === 126) && spawnError === null)
        spawnError = `${command}: ${status === 127 ? "not found" : "not executable"} (${Buffer.concat(stderr).toString("utf8").trim()})`;
      resolve({
        status,
        signal,
        timedOut,
        cpuMs,
        spawnError,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        durationMs: performance.now() - started,
      });
    });
  });
}

const CPU_POLL_MS = 250;

/** USER_HZ: the unit of /proc/<pid>/stat's utime and stime, fixed at 100 by the Linux ABI (proc(5)). */
const CLOCK_TICKS_PER_S = 100;

/** A CPU budget in ms as RLIMIT_CPU's whole seconds (at least 1): the kernel counts in seconds. */
export function cpuSecondsOf(budgetMs: number): number {
  return Math.max(1, Math.ceil(budgetMs / 1000));
}

/** A live process's CPU time (utime + stime of /proc/<pid>/stat, proc(5)) in ms; null when unreadable. */
export function processCpuMs(pid: number): number | null {
  return cpuMsOfStatFile(`/proc/${pid}/stat`);
}

/**
 * The CPU time, ms, of the process or thread whose proc(5) `stat` file this is (`/proc/<pid>/stat`,
 * `/proc/self/task/<tid>/stat`): utime + stime; null when the file cannot be read or parsed. The
 * runner's worker pool budgets each molecule by its worker thread's (issue 37 item 3).
 */
export function cpuMsOfStatFile(path: string): number | null {
  let stat: string;
  try {
    stat = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are
  // the 14th and 15th fields of the line, the 12th and 13th after ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_S;
}

/** Why a run failed, in one line, or null when it exited 0. */
export function describeToolFailure(
  name: string,
  run: ToolRun,
  timeoutMs?: number,
  cpuSeconds?: number,
): string | null {
  if (run.spawnError !== null) return `${name} could not be started: ${run.spawnError}`;
  if (run.timedOut) return `${name} exceeded its time budget of ${timeoutMs} ms and was killed`;
  if (run.signal === "SIGXCPU")
    return `${name} exceeded its CPU-time budget of ${cpuSeconds} s and was stopped`;
  if (run.signal !== null) return `${name} was killed by ${run.signal}`;
  if (run.status !== 0) {
    const tail =
      run.stderr.trim().split("\n").slice(-3).join(" | ") ||
      run.stdout.trim().split("\n").slice(-2).join(" | ");
    return `${name} exited with status ${run.status}${tail ? `: ${tail}` : ""}`;
  }
  return null;
}
