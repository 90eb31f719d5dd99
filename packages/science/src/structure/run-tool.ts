import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** One external program call, as recorded for `repro_pack/environment/` (issue 25 item 2). */
export interface ToolInvocation {
  readonly tool: string;
  /** The exact argument vector, program first. */
  readonly argv: readonly string[];
}

export interface ToolRunOptions {
  /** Wall-clock limit: the ceiling for a hung program. */
  readonly timeoutMs?: number;
  /**
   * CPU-time limit of the program (user + system, all its threads), read from /proc every 250 ms
   * (issue 37 item 3): on a loaded machine a wall-clock budget kills work that was progressing, a
   * CPU budget does not. Where /proc cannot be read, only the wall-clock limit applies.
   */
  readonly cpuBudgetMs?: number;
  readonly input?: string;
  readonly cwd?: string;
}

export interface ToolRun {
  /** Exit code, or null when the process was killed or could not start. */
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Which budget killed it: the wall clock or the CPU time; null when none did. */
  readonly budget: "wall" | "cpu" | null;
  /** CPU time the program used, ms, as last read from /proc; null when unread. */
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
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let budget: "wall" | "cpu" | null = null;
    let cpuMs: number | null = null;
    let spawnError: string | null = null;
    const kill = (which: "wall" | "cpu") => {
      if (timedOut) return;
      timedOut = true;
      budget = which;
      child.kill("SIGKILL");
    };
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => kill("wall"), options.timeoutMs);
    const cpuBudget = options.cpuBudgetMs;
    const poll =
      cpuBudget === undefined
        ? undefined
        : setInterval(() => {
            const used = child.pid === undefined ? null : processCpuMs(child.pid);
            if (used === null) return;
            cpuMs = used;
            if (used > cpuBudget) kill("cpu");
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
      if (poll) clearInterval(poll);
      resolve({
        status,
        signal,
        timedOut,
        budget,
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

/** A live process's CPU time (utime + stime of /proc/<pid>/stat, proc(5)) in ms; null when unreadable. */
export function processCpuMs(pid: number): number | null {
  return cpuMsOfStatFile(`/proc/${pid}/stat`);
}

/**
 * The CPU time, ms, of the process or thread whose proc(5) `stat` file this is (`/proc/<pid>/stat`,
 * `/proc/self/task/<tid>/stat`): utime + stime; null when the file cannot be read or parsed.
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
export function describeToolFailure(name: string, run: ToolRun, timeoutMs?: number): string | null {
  if (run.spawnError !== null) return `${name} could not be started: ${run.spawnError}`;
  if (run.timedOut && run.budget === "cpu")
    return `${name} exceeded its CPU budget of ${timeoutMs} ms CPU and was killed`;
  if (run.timedOut) return `${name} exceeded its time budget of ${timeoutMs} ms and was killed`;
  if (run.signal !== null) return `${name} was killed by ${run.signal}`;
  if (run.status !== 0) {
    const tail =
      run.stderr.trim().split("\n").slice(-3).join(" | ") ||
      run.stdout.trim().split("\n").slice(-2).join(" | ");
    return `${name} exited with status ${run.status}${tail ? `: ${tail}` : ""}`;
  }
  return null;
}
