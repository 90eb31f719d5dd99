import type { RunnerConfig } from "./config.ts";
import { type StagedInputs, stageInputs } from "./inputs/stage-inputs.ts";
import { NO_INTERRUPTION } from "./interruption.ts";
import type { Logger } from "./log.ts";
import type { PlannedRun } from "./stages/plan-stage.ts";
import { PRE_CHARGE_STAGES, type PreChargeStages } from "./stages/run-stages.ts";
import type { PreChargeContext } from "./stages/stage.ts";
import { StageSequence } from "./stages/stage-sequence.ts";
import type { RowValidation } from "./stages/validate-stage.ts";

export interface ValidateInputsDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  /** Where to write the per-row report (`--validation-out`), or null. */
  readonly reportPath: string | null;
  /** The plan and validate stages; default the run's own ({@link PRE_CHARGE_STAGES}; tests pass their own). */
  readonly stages?: PreChargeStages;
}

/** What `svc-runner validate` reports: the staged inputs, the plan and the rows' validation. */
export interface ValidatedInputs {
  readonly staged: StagedInputs;
  readonly planned: PlannedRun;
  readonly validation: RowValidation;
}

/**
 * `svc-runner validate` (and `--dry-run`) as the start of a run (issue 41 item 2): the same
 * staging, then the run's own plan and validate stages through a {@link StageSequence} (spec §3
 * order, the same refusals), stopping before the charge. Its context has no run folder and no
 * entitlement client, so the sequence cannot take a charge stage (stage.ts); the prepared rows are
 * not kept (nothing reads them) and no status record is written (there is no run). No signal
 * watch: the command is short, and a stop signal ends it as it ends any process.
 */
export async function validateInputs(deps: ValidateInputsDeps): Promise<ValidatedInputs> {
  const { config, log } = deps;
  const stages = deps.stages ?? PRE_CHARGE_STAGES;
  log.info("validating inputs (no charge)", { phase: "inputs", project_id: config.projectId });
  const staged = await stageInputs(config.inputRoot, config.projectId);
  const ctx: PreChargeContext = {
    config,
    log,
    interruption: NO_INTERRUPTION,
    validationFiles: { report: deps.reportPath, preparedRows: null },
  };
  const sequence = new StageSequence(ctx, async () => {});
  const planned = await sequence.run(stages.plan, staged);
  const validation = await sequence.run(stages.validate, staged);
  return { staged, planned, validation };
}
