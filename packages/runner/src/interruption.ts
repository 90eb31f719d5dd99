import type { Logger } from "./log.ts";
import { RunnerError } from "./runner-error.ts";

/** Whether a stop signal arrived, and which (issue 10 item 6). */
export interface Interruption {
  readonly signal: NodeJS.Signals | null;
}

/** Never interrupted: for callers that do not watch signals (tests, `validate`). */
export const NO_INTERRUPTION: Interruption = { signal: null };

/**
 * Watches SIGTERM (Kubernetes stopping the pod) and SIGINT (Ctrl-C). The first one is logged and
 * recorded, and the run stops taking rows at its next check; a second one of the same kind
 * exits at once with the interrupted code, as an operator pressing Ctrl-C twice expects.
 */
export function watchSignals(log: Logger): Interruption & { dispose(): void } {
  const state: { signal: NodeJS.Signals | null } = { signal: null };
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.signal !== null) {
      log.error(`${signal} again: exiting now without cleaning up`, { signal, exit_code: 75 });
      process.exit(75);
    }
    state.signal = signal;
    log.warn(`${signal} received: stopping at the next row, removing partial files`, { signal });
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return {
    get signal() {
      return state.signal;
    },
    dispose: () => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    },
  };
}

/** INTERRUPTED when a signal arrived; stages call it at the points where stopping is clean. */
export function assertNotInterrupted(interruption: Interruption, stage: string): void {
  if (interruption.signal !== null) {
    throw new RunnerError("INTERRUPTED", `${interruption.signal} received during the ${stage} stage`);
  }
}

/** Passes items through until a signal arrives, then throws INTERRUPTED instead of the next one. */
export async function* untilInterrupted<T>(
  items: AsyncIterable<T>,
  interruption: Interruption,
  stage: string,
): AsyncGenerator<T> {
  for await (const item of items) {
    assertNotInterrupted(interruption, stage);
    yield item;
  }
}
