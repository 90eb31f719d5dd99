import type { RunStage, RunStatusCounts } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { Interruption } from "../interruption.ts";
import type { EntitlementClient } from "../lifecycle/entitlement-client.ts";
import type { Logger } from "../log.ts";
import type { Scratch } from "../outputs/scratch.ts";

/**
 * What every stage of a run is given: the run's settings and the few things that live as long as
 * the run (its folder, its scratch space, the signal watch, the entitlement client, the clock).
 */
export interface StageContext {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly now: () => Date;
  /** When the run started: every output's generated_at, so reruns differ only in named fields. */
  readonly startedAt: string;
  readonly runDir: string;
  readonly scratch: Scratch;
  readonly interruption: Interruption;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
}

/**
 * One runner stage (issue 29 item 2, ARCHITECTURE.md convention 10): every stage of a run — plan,
 * validate, charge, structure, analyse, write, seal — has this one shape, so the run is a plain
 * sequence of `run` calls in the order spec §3 fixes (check, consume and run_start before the
 * analysis, run_complete last) and the stage-boundary bookkeeping (status record, signal checks)
 * is written once, in `StageSequence` (stage-sequence.ts), not around each call. A stage takes what earlier
 * stages produced as `input` and returns what later ones need; `counts` says what its result adds
 * to the run status record (docs/contracts/run-status.md), recorded as the next stage is entered.
 */
export interface Stage<In, Out> {
  readonly name: RunStage;
  run(ctx: StageContext, input: In): Promise<Out>;
  counts?(output: Out): Partial<RunStatusCounts>;
}
