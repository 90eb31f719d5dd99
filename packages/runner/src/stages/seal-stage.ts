import { type PresealReason, type RunStatusOutput, toInstant } from "@svc/core";
import { memoryFields } from "../memory.ts";
import { PRESEAL_CAUSE } from "../outputs/build-results.ts";
import type { RecordedSeal } from "../outputs/run-status-record.ts";
import { writePreseal } from "../outputs/seal-files.ts";
import { sealHashesWithFiles, statusOutputsOf } from "../outputs/seal-hashes.ts";
import { sealRun } from "../outputs/seal-run.ts";
import { EXIT, type ExitCode, RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import type { Stage, StageContext } from "./stage.ts";

/** What the seal stage needs from earlier stages. */
export interface SealInput {
  readonly categoryId: string;
  readonly inputsSha256: string;
}

export interface SealOutcome {
  readonly exitCode: ExitCode;
  readonly seal: RecordedSeal;
  /** Why the run ended with a pre-seal; null when sealed. */
  readonly reason: string | null;
  /** The outputs the status record lists, as hashed for this seal or pre-seal. */
  readonly outputs: readonly RunStatusOutput[];
}

/**
 * The run_complete failures that leave a pre-seal rather than a failed run: the run is charged
 * and its outputs are complete, and only the call failed, for a reason a later call can overcome
 * (the service came back; the job got a fresh token or its principal was allowed again). Any
 * other refusal is a verdict on the run itself and stays an error.
 */
const PRESEAL_ON: Readonly<Partial<Record<RunnerErrorCode, PresealReason>>> = {
  ENTITLEMENT_UNREACHABLE: "run_complete_unreachable",
  ENTITLEMENT_UNAUTHORIZED: "run_complete_unauthorized",
  ENTITLEMENT_FORBIDDEN: "run_complete_unauthorized",
};

/**
 * Stage 7, seal, linear (issue 29 item 2): the outputs are already written, each once (write
 * stage); this hashes them once and seals those hashes (`sealRun`, shared with `svc-runner seal`). When
 * run_complete is unreachable or refuses the job's credentials it writes a pre-seal of the same
 * hashes instead (exit 10; `svc-runner seal` completes it). Only seal/ is written here, and
 * seal/ is outside the hashed set: no hashed file is touched after hashing, on either path.
 */
export const sealStage: Stage<SealInput, SealOutcome> = {
  name: "seal",
  run: seal,
};

async function seal(ctx: StageContext, input: SealInput): Promise<SealOutcome> {
  const { config, log, runDir } = ctx;
  const hashed = await sealHashesWithFiles(runDir);
  const outputs = statusOutputsOf(hashed.files);
  log.info("outputs hashed", { phase: "seal", ...memoryFields() });
  let sealId: string;
  try {
    sealId = (await sealRun({ runDir, runId: config.runId, log, entitlement: ctx.entitlement }, hashed))
      .seal_id;
  } catch (error) {
    const reason = error instanceof RunnerError ? PRESEAL_ON[error.code] : undefined;
    if (reason === undefined) throw error;
    log.warn(`${PRESEAL_CAUSE[reason]}: writing a pre-seal; complete it with svc-runner seal --run-dir`, {
      phase: "seal",
      cause: (error as RunnerError).message,
      run_dir: runDir,
    });
    await writePreseal(runDir, {
      seal_version: "svc.preseal/v1",
      run_id: config.runId,
      project_id: config.projectId,
      mode: config.mode,
      module_id: config.moduleId,
      category_id: input.categoryId,
      image: config.image,
      inputs_sha256: input.inputsSha256,
      outputs_sha256: hashed.outputs_sha256,
      run_manifest_sha256: hashed.run_manifest_sha256,
      created_at: toInstant(ctx.now()),
      reason,
    });
    return {
      exitCode: EXIT.preseal,
      seal: { status: "pending_online_verification", reason },
      reason: PRESEAL_CAUSE[reason],
      outputs,
    };
  }
  return { exitCode: EXIT.success, seal: { status: "sealed", sealId }, reason: null, outputs };
}
