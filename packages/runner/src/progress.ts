import type { Logger } from "./log.ts";

export interface ProgressOptions {
  readonly log: Logger;
  /** What is being counted, e.g. "validating" or "analysing". */
  readonly label: string;
  readonly phase: string;
  readonly total: number;
  /** At most one report per interval (default 5 s), plus the last one. */
  readonly intervalMs?: number;
  /**
   * A line at least this often even when no item finished (issue 37 item 3: a docked compound can
   * take minutes, and 45 silent minutes read as a hang); default 30 s, 0 for none.
   */
  readonly heartbeatMs?: number;
  readonly now?: () => number;
}

/** Counts work done and reports it every few seconds. */
export interface Progress {
  tick(done: number): void;
  finish(done: number): void;
}

/**
 * The share of the work done before an ETA is printed (issue 28 item 6): before it, the mean rate is
 * mostly start-up (workers loading RDKit), and a 21 s run's first ETA said 2,675 s.
 */
const MEANINGFUL_FRACTION = 0.1;

/**
 * Progress people can read (issue 10 item 7): done/total, percentage, rate and ETA every few
 * seconds instead of a line per 100 rows (5,600 lines for 560k rows). The rate is the mean since
 * the start, which is steady enough for an ETA over a long run once a tenth of the work is done;
 * until then no ETA is printed.
 */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 5000;
  const started = now();
  let last = started;
  let latest = 0;
  const report = (done: number, final: boolean) => {
    const seconds = Math.max((now() - started) / 1000, 1e-3);
    const rate = done / seconds;
    const left = Math.max(options.total - done, 0);
    options.log.progress(
      `${options.label} ${done}/${options.total}`,
      {
        phase: options.phase,
        done,
        total: options.total,
        percent: options.total === 0 ? 100 : Math.round((done / options.total) * 1000) / 10,
        rate_per_s: Math.round(rate * 10) / 10,
        ...(final
          ? { eta_s: 0 }
          : done >= options.total * MEANINGFUL_FRACTION && rate > 0
            ? { eta_s: Math.round(left / rate) }
            : {}),
      },
      final,
    );
  };
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  // Unref'd: the heartbeat never keeps a finished process alive; finish() stops it.
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(
          () => {
            if (now() - last < heartbeatMs) return;
            last = now();
            report(latest, false);
          },
          Math.min(heartbeatMs, 5000),
        ).unref()
      : null;
  return {
    tick(done) {
      latest = done;
      const at = now();
      if (at - last < interval) return;
      last = at;
      report(done, false);
    },
    finish(done) {
      if (heartbeat !== null) clearInterval(heartbeat);
      report(done, true);
    },
  };
}
