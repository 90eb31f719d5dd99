import type { RunStage, RunStatusCounts } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { Interruption } from "../interruption.ts";
import type { EntitlementClient } from "../lifecycle/entitlement-client.ts";
import type { Logger } from "../log.ts";
import type { Scratch } from "../outputs/scratch.ts";

/**
 * Where the validate stage writes what it found: the per-row report (svc.validation/v1) and the
 * prepared rows the structure and analyse stages read again; null: not written. A run writes both
 * into its folder (`runValidationFiles`, validate-stage.ts); `svc-runner validate`, which has no run
 * folder, writes only the report it was asked for (`--validation-out`).
 */
export interface ValidationFiles {
  readonly report: string | null;
  readonly preparedRows: string | null;
}

/**
 * What the stages before the charge (plan, validate) are given: the run's settings, its log, the
 * signal watch and where validation writes. No run folder, no entitlement client: `svc-runner
 * validate` runs these very stages with this much and stops before the charge (issue 41 item 2).
 */
export interface PreChargeContext {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly interruption: Interruption;
  readonly validationFiles: ValidationFiles;
}

/**
 * What every stage of a run is given: the run's settings and the few things that live as long as
 * the run (its folder, its scratch space, the signal watch, the entitlement client, the clock).
 */
export interface StageContext extends PreChargeContext {
  readonly now: () => Date;
  /** When the run started: every output's generated_at, so reruns differ only in named fields. */
  readonly startedAt: string;
  readonly runDir: string;
  readonly scratch: Scratch;
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
 * `Ctx` is what the stage needs of the run: the stages before the charge need only a
 * {@link PreChargeContext}, so `svc-runner validate` runs them without a run folder.
 */
export interface Stage<In, Out, Ctx extends PreChargeContext = StageContext> {
  readonly name: RunStage;
  // A property, not a method: its parameters are then checked contravariantly, so a stage that
  // needs the whole StageContext cannot be handed to a sequence that holds only a PreChargeContext.
  readonly run: (ctx: Ctx, input: In) => Promise<Out>;
  counts?(output: Out): Partial<RunStatusCounts>;
}
