import { RUN_STAGES, type RunStage, type RunStatusCounts } from "@svc/core";
import { assertNotInterrupted } from "../interruption.ts";
import type { PreChargeContext, Stage, StageContext } from "./stage.ts";

/**
 * Stages entered only if no stop signal arrived: those after the charge and before the write.
 * Before the charge the validate stage stops at its next row; from the write on the run finishes
 * whatever arrives (writing and sealing take seconds), so a charged run never ends half written.
 */
const STOPS_ON_SIGNAL: ReadonlySet<RunStage> = new Set(["structure", "analyse"]);

/** Records that the run entered a stage (the run status record), or nothing (a shard's pod ≠ 0). */
export type EnterStage = (stage: RunStage, counts: Partial<RunStatusCounts>) => Promise<void>;

/**
 * The run's stages, run one after the other in spec §3 order with the stage-boundary bookkeeping
 * in one place: the order itself (a stage out of RUN_STAGES order is a programming error), the
 * signal check, the status record's `enter` with the counts the previous stage produced, and
 * which stage the run is in (what an interrupted run's summary names). A run's sequence holds the
 * whole {@link StageContext}; `svc-runner validate`'s holds a {@link PreChargeContext} and so takes
 * only the stages before the charge (a charge stage does not type-check there).
 */
export class StageSequence<Ctx extends PreChargeContext = StageContext> {
  readonly #ctx: Ctx;
  readonly #enter: EnterStage;
  #stage: RunStage | null = null;
  #counts: Partial<RunStatusCounts> = {};

  constructor(ctx: Ctx, enter: EnterStage) {
    this.#ctx = ctx;
    this.#enter = enter;
  }

  /** The stage the run last entered; null before the first. */
  get stage(): RunStage | null {
    return this.#stage;
  }

  async run<In, Out>(stage: Stage<In, Out, Ctx>, input: In): Promise<Out> {
    const expected = RUN_STAGES[this.#stage === null ? 0 : RUN_STAGES.indexOf(this.#stage) + 1];
    if (stage.name !== expected)
      throw new Error(`stage ${stage.name} entered out of order: ${expected ?? "none"} comes next (spec §3)`);
    const previous = this.#stage;
    this.#stage = stage.name;
    if (previous !== null && STOPS_ON_SIGNAL.has(stage.name))
      assertNotInterrupted(this.#ctx.interruption, previous);
    await this.#enter(stage.name, this.#counts);
    const output = await stage.run(this.#ctx, input);
    this.#counts = stage.counts?.(output) ?? {};
    return output;
  }
}
