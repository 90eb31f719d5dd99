import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { type RunStage, toInstant } from "@svc/core";
import { structureToolVersions } from "@svc/science";
import type { RunnerConfig } from "./config.ts";
import { stageInputs } from "./inputs/stage-inputs.ts";
import {
  assertNotInterrupted,
  type Interruption,
  NO_INTERRUPTION,
  untilInterrupted,
} from "./interruption.ts";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { memoryFields } from "./memory.ts";
import { writeJsonAtomic } from "./outputs/atomic-write.ts";
import { buildInterruptedSummary } from "./outputs/build-results.ts";
import { prepareRunDir } from "./outputs/run-dir.ts";
import { type RecordedSeal, RunStatusRecorder } from "./outputs/run-status-record.ts";
import { openScratch, removeScratchFolders, SCRATCH_DIR, type Scratch } from "./outputs/scratch.ts";
import { createProgress } from "./progress.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";
import { analyseStage } from "./stages/analyse-stage.ts";
import { type ChargedRun, chargeStage } from "./stages/charge-stage.ts";
import { planStage } from "./stages/plan-stage.ts";
import { sealStage } from "./stages/seal-stage.ts";
import { mergeShards, removeShards, SHARDS_DIR } from "./stages/shard-stage.ts";
import { structureStage } from "./stages/structure-stage.ts";
import { type RowValidation, validateAllRows } from "./stages/validate-all-rows.ts";
import { validateShard } from "./stages/validate-shard.ts";
import { readValidatedRows, recordValidation, VALIDATION_FILE } from "./stages/validate-stage.ts";
import {
  buildRunFacts,
  planOutputFiles,
  type WriteInputs,
  writeReportAndHashList,
  writeStage,
} from "./stages/write-stage.ts";

export interface AuditDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
  readonly now?: () => Date;
  /** SIGTERM/SIGINT watch (main.ts); stages stop taking rows once a signal arrived. */
  readonly interruption?: Interruption;
}

export interface AuditOutcome {
  readonly exitCode: ExitCode;
  readonly runDir: string;
  /** `shard_done`: a sharded run's pod other than index 0, whose part is done. */
  readonly sealStatus: RecordedSeal["status"] | "shard_done";
}

const PREPARED_CACHE = "prepared.jsonl";

/**
 * One audit run in the spec §3 order, as named stages: plan → validate → charge → structure →
 * analyse → write → seal. Every row is parsed before anything is charged; a run refused before
 * consume leaves no run folder behind (issue 10 item 1, issue 13). Scratch space lives in the run
 * folder and is removed on every exit path. The status record (docs/contracts/run-status.md) says
 * each stage as it is entered and the run's end, beside the run folder (issue 29 item 3); a
 * sharded run's index 0 keeps it, the pod that finishes the run.
 */
export async function runAudit(deps: AuditDeps): Promise<AuditOutcome> {
  const { config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const interruption = deps.interruption ?? NO_INTERRUPTION;
  const startedAt = toInstant(now());
  log.info("validating inputs", { phase: "inputs", project_id: config.projectId });
  const inputs = await stageInputs(config.inputRoot, config.projectId);
  const plannedRun = planStage(inputs, config.categoryPreset);
  const sharded = config.shards > 1;
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
  const enter: RunStatusRecorder["enter"] = async (stage, counts) => status?.enter(stage, counts);
  let scratch: Scratch | null = null;
  let charged: ChargedRun | null = null;
  let stage = "validate";
  try {
    await enter("plan");
    scratch = await openScratch(runDir, sharded ? `.scratch-${config.shardIndex}` : undefined);
    const cachePath = scratch.path(PREPARED_CACHE);
    let validation: RowValidation;
    await enter("validate");
    if (!sharded) {
      validation = await validateAllRows(
        config,
        log,
        inputs,
        { reportPath: join(runDir, VALIDATION_FILE), cachePath },
        interruption,
      );
      await enter("charge", countsOf(validation.summary));
      charged = await chargeStage({ ...deps, now }, inputs, plannedRun, startedAt);
    } else {
      const shard = await validateShard(config, log, inputs, runDir, interruption, async () => {
        await enter("charge");
        return chargeStage({ ...deps, now }, inputs, plannedRun, startedAt);
      });
      charged = shard.charged;
      if (config.shardIndex !== 0) {
        log.info("shard done: index 0 finishes the run", { phase: "shards", shard: config.shardIndex });
        return { exitCode: EXIT.success, runDir, sealStatus: "shard_done" };
      }
      // Index 0: the slices back in portfolio order, as one validation report and one cache.
      const summary = await recordValidation(mergeShards(runDir, config.shards), {
        file: `01_sources/${basename(inputs.portfolioPath)}`,
        limits: { maxHeavyAtoms: config.maxHeavyAtoms, maxSmilesLength: config.maxSmilesLength },
        reportPath: join(runDir, VALIDATION_FILE),
        cachePath,
      });
      await removeShards(runDir);
      validation = { summary, rdkitVersion: shard.rdkitVersion };
      await status?.count(countsOf(summary));
    }
    stage = "structures";
    assertNotInterrupted(interruption, "charge");
    await enter("structure");
    // issue 25: the structure modules run once per staged structure, inside the charged run.
    const structures = await structureStage({
      log,
      runDir,
      runId: config.runId,
      mode: config.mode,
      planned: plannedRun,
      structures: inputs.structures,
      workDir: scratch.path("structures"),
      dockingMaxCompounds: config.dockingMaxCompounds,
      probeToolVersions: structureToolVersions,
      generatedAt: startedAt,
      rows: () => readValidatedRows(cachePath),
    });
    stage = "analyse";
    assertNotInterrupted(interruption, "structures");
    await enter("analyse");
    const generatedAt = startedAt;
    const analysing = createProgress({
      log,
      label: "analysing",
      phase: "modules",
      total: validation.summary.rows,
    });
    const analysed = await analyseStage({
      config,
      log,
      runDir,
      scratch,
      planned: plannedRun,
      primaryCandidateId: inputs.sources.primary_candidate_id,
      targetsPath:
        inputs.sources.targets_csv === null ? null : join(inputs.sourcesDir, inputs.sources.targets_csv),
      targets: inputs.targets,
      rows: untilInterrupted(readValidatedRows(scratch.path(PREPARED_CACHE)), interruption, "analyse"),
      generatedAt,
      onCompound: (done) => analysing.tick(done),
      structureFailures: structures.failures,
      structures: inputs.structures.map(({ index, path, format }) => ({ index, path, format })),
    });
    analysing.finish(analysed.result.compounds);
    // From here the run finishes even if a signal arrives: writing and sealing take seconds.
    stage = "write";
    await enter("write", {
      compounds: analysed.result.compounds,
      modules_executed: analysed.counts.executed,
      modules_failed: analysed.counts.failed,
    });
    log.info("writing outputs", {
      phase: "outputs",
      claim_strength: analysed.counts.claim_strength,
      coverage: analysed.counts.coverage_ratio,
      ...memoryFields(),
    });
    const writeInputs: WriteInputs = {
      config,
      staged: inputs,
      planned: plannedRun,
      charged,
      analysed,
      validation: validation.summary,
      startedAt,
      generatedAt,
      outputsCompletedAt: toInstant(now()),
      rdkitVersion: validation.rdkitVersion,
      structureTools: structures.toolVersions,
    };
    const facts = buildRunFacts(writeInputs);
    await writeStage(runDir, writeInputs, planOutputFiles(writeInputs, facts));
    await writeReportAndHashList(
      {
        config,
        log,
        runDir,
        report: analysed.report,
        generatedAt,
        // Index 0 of a sharded run seals after every slice is merged: the other pods' scratch is spent.
        removeScratch: () => removeScratchFolders(runDir),
      },
      facts,
    );
    stage = "seal";
    await enter("seal");
    const sealed = await sealStage({
      config,
      log,
      entitlement: deps.entitlement,
      now,
      runDir,
      categoryId: plannedRun.category.category_id,
      inputsSha256: facts.inputs_sha256,
    });
    await status?.succeed(sealed.seal, sealed.exitCode, sealed.reason);
    return { exitCode: sealed.exitCode, sealStatus: sealed.seal.status, runDir };
  } catch (error) {
    // The record says how the run ended; failing to write it must not hide why the run failed.
    await status
      ?.fail(error)
      .catch((recordError: unknown) =>
        log.warn("run status record not written", { cause: (recordError as Error).message }),
      );
    // Nothing was charged: leave nothing behind (a rerun starts clean either way).
    // A sharded run's folder is shared: only index 0 removes it, after a refusal every pod saw.
    const refusedByAll = error instanceof RunnerError && error.code === "PORTFOLIO_INVALID";
    if (charged === null && (!sharded || (config.shardIndex === 0 && refusedByAll)))
      await rm(runDir, { recursive: true, force: true });
    else if (error instanceof RunnerError && error.code === "INTERRUPTED") {
      // Charged and stopped: partial files are already aborted; say so where people look first.
      await writeJsonAtomic(
        join(runDir, "results", "summary.json"),
        buildInterruptedSummary({
          run_id: config.runId,
          project_id: config.projectId,
          mode: config.mode,
          signal: interruption.signal,
          stage,
          interrupted_at: toInstant(now()),
        }),
      );
    }
    throw error;
  } finally {
    await scratch?.dispose();
  }
}

function countsOf(summary: { rows: number; ok: number; invalid: number; unassessed: number }) {
  return {
    rows: summary.rows,
    rows_ok: summary.ok,
    rows_invalid: summary.invalid,
    rows_unassessed: summary.unassessed,
  };
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
