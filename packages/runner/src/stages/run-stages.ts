import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { type AnalysedRun, type AnalyseInput, analyseStage } from "./analyse-stage.ts";
import { type ChargeInput, type ChargeResult, chargeStage } from "./charge-stage.ts";
import { type PlannedRun, planStage } from "./plan-stage.ts";
import { type SealInput, type SealOutcome, sealStage } from "./seal-stage.ts";
import { shardedChargeStage, shardedValidateStage } from "./sharded-run-stages.ts";
import type { PreChargeContext, Stage } from "./stage.ts";
import { type StructureInput, type StructureStageResult, structureStage } from "./structure-stage.ts";
import { type RowValidation, validateStage } from "./validate-stage.ts";
import { type WriteInput, writeStage } from "./write-stage.ts";

/** Every stage of a run, keyed and listed in spec §3 order (RUN_STAGES). */
export interface RunStages {
  readonly plan: Stage<StagedInputs, PlannedRun>;
  readonly validate: Stage<StagedInputs, RowValidation>;
  readonly charge: Stage<ChargeInput, ChargeResult>;
  readonly structure: Stage<StructureInput, StructureStageResult>;
  readonly analyse: Stage<AnalyseInput, AnalysedRun>;
  readonly write: Stage<WriteInput, void>;
  readonly seal: Stage<SealInput, SealOutcome>;
}

/** The stages before the charge, needing no more than a {@link PreChargeContext}. */
export interface PreChargeStages {
  readonly plan: Stage<StagedInputs, PlannedRun, PreChargeContext>;
  readonly validate: Stage<StagedInputs, RowValidation, PreChargeContext>;
}

/**
 * A one-pod run's plan and validate stages: the very objects {@link runStages} lists, and what
 * `svc-runner validate` runs (validate-inputs.ts), stopping before the charge (issue 41 item 2).
 */
export const PRE_CHARGE_STAGES: PreChargeStages = { plan: planStage, validate: validateStage };

/**
 * The stages of a run: a sharded run (issue 10 item 9) differs only in its validate and charge
 * stages, where its pods meet (sharded-run-stages.ts); runAudit runs either list the same way.
 */
export function runStages(sharded: boolean): RunStages {
  return {
    plan: PRE_CHARGE_STAGES.plan,
    validate: sharded ? shardedValidateStage : PRE_CHARGE_STAGES.validate,
    charge: sharded ? shardedChargeStage : chargeStage,
    structure: structureStage,
    analyse: analyseStage,
    write: writeStage,
    seal: sealStage,
  };
}
