import { rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { RUN_FILES, type RunStage, toInstant } from "@svc/core";
import type { RunnerConfig } from "./config.ts";
import { stageInputs } from "./inputs/stage-inputs.ts";
import { type Interruption, NO_INTERRUPTION } from "./interruption.ts";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { writeJsonAtomic } from "./outputs/atomic-write.ts";
import { buildInterruptedSummary } from "./outputs/build-results.ts";
import { prepareRunDir } from "./outputs/run-dir.ts";
import { type RecordedSeal, RunStatusRecorder } from "./outputs/run-status-record.ts";
import { openScratch, SCRATCH_DIR, type Scratch } from "./outputs/scratch.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";
import type { ChargedRun } from "./stages/charge-stage.ts";
import { type RunStages, runStages } from "./stages/run-stages.ts";
import { removeShards, SHARDS_DIR } from "./stages/shard-stage.ts";
import { StageSequence } from "./stages/stage-sequence.ts";
import { runValidationFiles } from "./stages/validate-stage.ts";

export interface AuditDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
  readonly now?: () => Date;
  /** SIGTERM/SIGINT watch (main.ts); stages stop taking rows once a signal arrived. */
  readonly interruption?: Interruption;
  /** The run's stages; default {@link runStages} for the configuration (tests pass their own). */
  readonly stages?: RunStages;
}

export interface AuditOutcome {
  readonly exitCode: ExitCode;
  readonly runDir: string;
  /** `shard_done`: a sharded run's pod other than index 0, whose part is done. */
  readonly sealStatus: RecordedSeal["status"] | "shard_done";
}

/**
 * One audit run in the spec §3 order, as named stages of one shape (stages/stage.ts): plan →
 * validate → charge → structure → analyse → write → seal, each entered through one
 * {@link StageSequence} that records it and checks for a stop signal. Every row is parsed before
 * anything is charged; a run refused before consume leaves no run folder behind (issue 10 item
 * 1, issue 13). Scratch space lives in the run folder and is removed on every exit path. The
 * status record (docs/contracts/run-status.md) says each stage as it is entered and the run's
 * end, beside the run folder (issue 29 item 3); a sharded run's index 0 keeps it, the pod that
 * finishes the run.
 */
export async function runAudit(deps: AuditDeps): Promise<AuditOutcome> {
  const { config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const interruption = deps.interruption ?? NO_INTERRUPTION;
  const startedAt = toInstant(now());
  const sharded = config.shards > 1;
  const stages = deps.stages ?? runStages(sharded);
  log.info("validating inputs", { phase: "inputs", project_id: config.projectId });
  const staged = await stageInputs(config.inputRoot, config.projectId);
  // Pods of a sharded run share the folder: only index 0 clears an earlier attempt's leftovers,
  // and never the slices or scratch of pods running beside it.
  const runDir = await prepareRunDir(config.outputRoot, config.runId, {
    clear: !sharded || config.shardIndex === 0,
    keep: (name) => sharded && (name === SHARDS_DIR || name.startsWith(`${SCRATCH_DIR}-`)),
  });
  const status =
    !sharded || config.shardIndex === 0
      ? new RunStatusRecorder({
          outputRoot: config.outputRoot,
          runId: config.runId,
          projectId: config.projectId,
          now,
          afterEnter: (stage) => pauseForTest(config.pauseAtStage, stage, log),
        })
      : null;
  let scratch: Scratch | null = null;
  let sequence: StageSequence | null = null;
  let charged: ChargedRun | null = null;
  /** What a refused run leaves of its folder, once its scratch is gone. */
  let leaveBehind: "everything" | "nothing" | "unless-shared" = "everything";
  try {
    scratch = await openScratch(runDir, sharded ? `.scratch-${config.shardIndex}` : undefined);
    const validationFiles = runValidationFiles(runDir, scratch);
    const ctx = { ...deps, now, startedAt, runDir, scratch, interruption, validationFiles };
    sequence = new StageSequence(ctx, async (stage, counts) => status?.enter(stage, counts));
    const planned = await sequence.run(stages.plan, staged);
    const validation = await sequence.run(stages.validate, staged);
    const charge = await sequence.run(stages.charge, { staged, planned });
    charged = charge.charged;
    const structureInput = { planned, structures: staged.structures, compounds: validation.summary.ok };
    if (!charge.finishesRun) {
      // A sharded run's other pods dock their slice of the portfolio; index 0 merges it (issue 39 item 2).
      if (sharded) await sequence.run(stages.structure, structureInput);
      return { exitCode: EXIT.success, runDir, sealStatus: "shard_done" };
    }
    const structures = await sequence.run(stages.structure, structureInput);
    // Every pod's docking is merged: nothing reads shards/ any more (the outputs equal one pod's).
    if (sharded) await removeShards(runDir);
    const analysed = await sequence.run(stages.analyse, {
      staged,
      planned,
      validation: validation.summary,
      structureFailures: structures.failures,
      structureWork: structures.work,
    });
    await sequence.run(stages.write, {
      staged,
      planned,
      charged,
      validation,
      structureTools: structures.toolVersions,
      analysed,
    });
    const sealed = await sequence.run(stages.seal, {
      categoryId: planned.category.category_id,
      inputsSha256: staged.tree.sha256,
    });
    await status?.succeed(sealed.seal, sealed.exitCode, sealed.reason, sealed.outputs);
    return { exitCode: sealed.exitCode, sealStatus: sealed.seal.status, runDir };
  } catch (error) {
    // The record says how the run ended; failing to write it must not hide why the run failed.
    await status
      ?.fail(error)
      .catch((recordError: unknown) =>
        log.warn("run status record not written", { cause: (recordError as Error).message }),
      );
    // Nothing was charged: leave nothing behind (a rerun starts clean either way).
    // A sharded run's folder is shared: only index 0 removes it with what is in it, after a
    // refusal every pod saw: every pod plans the same inputs with the same settings, and decides
    // the portfolio together. A pod refused by its plan holds nothing but its scratch there, so
    // each other pod removes the folder once it is empty: a pod that created it after index 0
    // removed it does not leave it behind.
    const refusedByAll =
      sequence?.stage === "plan" || (error instanceof RunnerError && error.code === "PORTFOLIO_INVALID");
    if (charged === null && (!sharded || (config.shardIndex === 0 && refusedByAll))) leaveBehind = "nothing";
    else if (charged === null && sequence?.stage === "plan") leaveBehind = "unless-shared";
    else if (error instanceof RunnerError && error.code === "INTERRUPTED") {
      // Charged and stopped: partial files are already aborted; say so where people look first.
      await writeJsonAtomic(
        join(runDir, RUN_FILES.summary),
        buildInterruptedSummary({
          run_id: config.runId,
          project_id: config.projectId,
          mode: config.mode,
          signal: interruption.signal,
          stage: sequence?.stage ?? "plan",
          interrupted_at: toInstant(now()),
        }),
      );
    }
    throw error;
  } finally {
    await scratch?.dispose();
    if (leaveBehind === "nothing") await rm(runDir, { recursive: true, force: true });
    // rmdir removes only an empty folder: another pod's scratch keeps it for that pod to remove
    if (leaveBehind === "unless-shared") await rmdir(runDir).catch(() => {});
  }
}

/**
 * `SVC_TEST_PAUSE_AT_STAGE` (tests only): holds the run at a stage boundary, its record on disk,
 * until the test kills it; an open timer keeps the process alive without doing anything.
 */
async function pauseForTest(pauseAt: RunStage | null, stage: RunStage, log: Logger): Promise<void> {
  if (pauseAt !== stage) return;
  log.warn(`paused at stage ${stage} (SVC_TEST_PAUSE_AT_STAGE): waiting to be killed`, { stage });
  await new Promise<never>(() => setInterval(() => {}, 60_000));
}
