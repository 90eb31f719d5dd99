import { toInstant } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import type {
  CheckResponse,
  ConsumeResponse,
  EntitlementClient,
  RunParams,
  RunStartResponse,
} from "../lifecycle/entitlement-client.ts";
import { type MeteringRecord, reportUsage } from "../lifecycle/metering.ts";
import type { Logger } from "../log.ts";
import type { PlannedRun } from "./plan-stage.ts";

/** What the entitlement service answered; recorded in run_manifest.json. */
export interface ChargedRun {
  readonly check: CheckResponse;
  readonly consume: ConsumeResponse;
  readonly runStart: RunStartResponse;
  readonly metering: MeteringRecord;
}

export interface ChargeStageDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart">;
  readonly now: () => Date;
}

/**
 * Stage 3, charge (spec §3): check → consume → metering report → run_start. Reached only with
 * inputs validated and a plan made. Every call is idempotent for the same run id and principal,
 * so a rerun of an interrupted run replays instead of charging again.
 */
export async function chargeStage(
  deps: ChargeStageDeps,
  staged: StagedInputs,
  planned: PlannedRun,
  startedAt: string,
): Promise<ChargedRun> {
  const { config, log } = deps;
  const params: RunParams = {
    run_id: config.runId,
    project_id: config.projectId,
    mode: config.mode,
    module_id: config.moduleId,
  };
  log.info("entitlement check", { phase: "entitlement", url: config.entitlementUrl });
  const check = await deps.entitlement.check(params);
  const consume = await deps.entitlement.consume(params);
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
        startTime: startedAt,
        endTime: toInstant(deps.now()),
      });
  if (metering.configured && !metering.reported)
    log.warn("metering report refused", { status: metering.status, error: metering.error });
  const runStart = await deps.entitlement.runStart({
    ...params,
    category_id: planned.category.category_id,
    inputs_sha256: staged.tree.sha256,
    image: config.image,
  });
  return { check, consume, runStart, metering };
}
