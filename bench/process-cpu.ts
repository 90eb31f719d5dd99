// CPU time of this process's descendants, read from Linux /proc (proc(5): fields 14-17 of
// /proc/<pid>/stat are utime, stime, cutime, cstime in clock ticks). A benchmark on a shared,
// loaded machine is bound by CPU share, not by wall time: where the CPU of one operation goes
// (load generator, service, database) says what a change can win, whatever the machine's load.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the project runs on

interface Stat {
  readonly pid: number;
  readonly ppid: number;
  readonly own: number;
  readonly children: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) may hold spaces and parentheses: fields start after the last ')'
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const tick = (index: number) => Number(fields[index - 3]);
    return { pid, ppid: tick(4), own: tick(14) + tick(15), children: tick(16) + tick(17) };
  } catch {
    return null; // exited between the listing and the read
  }
}

/**
 * CPU milliseconds so far of the process tree under `root` (alive processes, plus what their
 * reaped children used). Linux only: elsewhere answers null.
 */
export function treeCpuMs(root: number): number | null {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return null;
  }
  const stats = names
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is Stat => stat !== null);
  const children = new Map<number, Stat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const rootStat = stats.find((stat) => stat.pid === root);
  if (rootStat === undefined) return null;
  let ticks = 0;
  const visit = (stat: Stat) => {
    ticks += stat.own + stat.children;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  visit(rootStat);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** This process's own CPU milliseconds (user + system), without its children. */
export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Direct children of this process whose command name (/proc/<pid>/comm) is `name`. */
export function childPidsNamed(name: string): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return (
          readStat(pid)?.ppid === process.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name
        );
      } catch {
        return false;
      }
    });
}
