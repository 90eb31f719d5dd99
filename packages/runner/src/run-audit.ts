import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { toInstant } from "@svc/core";
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
import type { SealStatus } from "./outputs/run-facts.ts";
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
import { buildRunFacts, planOutputFiles, type WriteInputs, writeStage } from "./stages/write-stage.ts";

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
  readonly sealStatus: SealStatus | "shard_done";
}

const PREPARED_CACHE = "prepared.jsonl";

/**
 * One audit run in the spec §3 order, as named stages: validate → plan → charge → analyse →
 * write → seal. Every row is parsed before anything is charged; a run refused before consume
 * leaves no run folder behind (issue 10 item 1, issue 13). Scratch space lives in the run folder
 * and is removed on every exit path.
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
  let scratch: Scratch | null = null;
  let charged: ChargedRun | null = null;
  let stage = "validate";
  try {
    scratch = await openScratch(runDir, sharded ? `.scratch-${config.shardIndex}` : undefined);
    const cachePath = scratch.path(PREPARED_CACHE);
    let validation: RowValidation;
    if (!sharded) {
      validation = await validateAllRows(
        config,
        log,
        inputs,
        { reportPath: join(runDir, VALIDATION_FILE), cachePath },
        interruption,
      );
      charged = await chargeStage({ ...deps, now }, inputs, plannedRun, startedAt);
    } else {
      const shard = await validateShard(config, log, inputs, runDir, interruption, () =>
        chargeStage({ ...deps, now }, inputs, plannedRun, startedAt),
      );
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
    }
    stage = "structures";
    assertNotInterrupted(interruption, "charge");
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
    });
    analysing.finish(analysed.result.compounds);
    // From here the run finishes even if a signal arrives: writing and sealing take seconds.
    stage = "write";
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
    const sealed = await sealStage({
      config,
      log,
      entitlement: deps.entitlement,
      now,
      runDir,
      facts,
      categoryId: plannedRun.category.category_id,
      report: analysed.report,
      generatedAt,
      // Index 0 of a sharded run seals after every slice is merged: the other pods' scratch is spent.
      removeScratch: () => removeScratchFolders(runDir),
    });
    return { ...sealed, runDir };
  } catch (error) {
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
