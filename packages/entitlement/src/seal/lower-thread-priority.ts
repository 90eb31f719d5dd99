import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** The highest nice value Linux allows (setpriority(2)). */
const NICEST = 19;

/**
 * Raises the calling worker thread's nice value by `steps` (Linux: the nice value is a per-thread
 * attribute, setpriority(2) NOTES; `/proc/thread-self` names the calling thread, proc(5)). Seal
 * verification workers call it so that, when the CPUs are contended, the scheduler runs the
 * service's event loop (health, consume) before them (issue 9 item 7). Raising a nice value needs
 * no privilege. Returns the new nice value, or null where there is no per-thread id to name (other
 * systems, the main thread): then nothing changes.
 */
export function lowerThisThreadPriority(steps: number): number | null {
  let tid: number;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
  } catch {
    return null;
  }
  // the main thread's id is the process id: renicing it would slow the event loop itself
  if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return null;
  try {
    const nice = Math.min(NICEST, getPriority(tid) + steps);
    setPriority(tid, nice);
    return getPriority(tid);
  } catch {
    return null;
  }
}
