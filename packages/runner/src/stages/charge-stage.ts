import { toInstant } from "@svc/core";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import type {
  CheckResponse,
  ConsumeResponse,
  RunParams,
  RunStartResponse,
} from "../lifecycle/entitlement-client.ts";
import { type MeteringRecord, reportUsage } from "../lifecycle/metering.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { Stage, StageContext } from "./stage.ts";

/** What the entitlement service answered; recorded in run_manifest.json. */
export interface ChargedRun {
  readonly check: CheckResponse;
  readonly consume: ConsumeResponse;
  readonly runStart: RunStartResponse;
  readonly metering: MeteringRecord;
}

/** What the charge stage needs from earlier stages. */
export interface ChargeInput {
  readonly staged: StagedInputs;
  readonly planned: PlannedRun;
}

/** The charge stage's result: the answers, and whether this pod goes on to finish the run. */
export interface ChargeResult {
  readonly charged: ChargedRun;
  /** False for a sharded run's pod other than index 0: its part ends here (sharded-run-stages.ts). */
  readonly finishesRun: boolean;
}

/**
 * Stage 3, charge (spec §3): check → consume → metering report → run_start. Reached only with
 * inputs validated and a plan made. Every call is idempotent for the same run id and principal,
 * so a rerun of an interrupted run replays instead of charging again.
 */
export const chargeStage: Stage<ChargeInput, ChargeResult> = {
  name: "charge",
  run: async (ctx, input) => ({ charged: await charge(ctx, input), finishesRun: true }),
};

/** The entitlement calls of the charge stage (also a sharded run's, sharded-run-stages.ts). */
export async function charge(ctx: StageContext, { staged, planned }: ChargeInput): Promise<ChargedRun> {
  const { config, log } = ctx;
  const params: RunParams = {
    run_id: config.runId,
    project_id: config.projectId,
    mode: config.mode,
    module_id: config.moduleId,
  };
  log.info("entitlement check", { phase: "entitlement", url: config.entitlementUrl });
  const check = await ctx.entitlement.check(params);
  const consume = await ctx.entitlement.consume(params);
  log.info("run consumed", { phase: "entitlement", runs_remaining: consume.runs_remaining });
  // A rerun of an interrupted run replays its consume: the unit was reported the first time.
  const metering: MeteringRecord = check.already_consumed
    ? {
        configured: config.meteringUrl !== null,
        metric: config.meteringUrl === null ? null : config.metricName,
        reported: false,
        status: null,
        error:
          config.meteringUrl === null ? null : "not reported again: the consume was a replay (resumed run)",
      }
    : await reportUsage({
        agentUrl: config.meteringUrl,
        metric: config.metricName,
        startTime: ctx.startedAt,
        endTime: toInstant(ctx.now()),
      });
  if (metering.configured && !metering.reported)
    log.warn("metering report refused", { status: metering.status, error: metering.error });
  const runStart = await ctx.entitlement.runStart({
    ...params,
    category_id: planned.category.category_id,
    inputs_sha256: staged.tree.sha256,
    image: config.image,
  });
  return { check, consume, runStart, metering };
}
