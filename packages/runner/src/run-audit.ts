import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { toInstant } from "@svc/core";
import type { RunnerConfig } from "./config.ts";
import { readPortfolioRows } from "./inputs/portfolio.ts";
import { type StagedInputs, stageInputs } from "./inputs/stage-inputs.ts";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { prepareRunDir } from "./outputs/run-dir.ts";
import type { SealStatus } from "./outputs/run-facts.ts";
import { openScratch, type Scratch } from "./outputs/scratch.ts";
import { CompoundPool } from "./pool/compound-pool.ts";
import type { ExitCode } from "./runner-error.ts";
import { analyseStage } from "./stages/analyse-stage.ts";
import { type ChargedRun, chargeStage } from "./stages/charge-stage.ts";
import { planStage } from "./stages/plan-stage.ts";
import { sealStage } from "./stages/seal-stage.ts";
import {
  assertAcceptable,
  readValidatedRows,
  VALIDATION_FILE,
  type ValidationSummary,
  validateRows,
} from "./stages/validate-stage.ts";
import { buildRunFacts, planOutputFiles, type WriteInputs, writeStage } from "./stages/write-stage.ts";

export interface AuditDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
  readonly now?: () => Date;
}

export interface AuditOutcome {
  readonly exitCode: ExitCode;
  readonly runDir: string;
  readonly sealStatus: SealStatus;
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
  const startedAt = toInstant(now());
  log.info("validating inputs", { phase: "inputs", project_id: config.projectId });
  const inputs = await stageInputs(config.inputRoot, config.projectId);
  const plannedRun = planStage(inputs, config.categoryPreset);
  const runDir = await prepareRunDir(config.outputRoot, config.runId);
  let scratch: Scratch | null = null;
  let charged: ChargedRun | null = null;
  try {
    scratch = await openScratch(runDir);
    const validation = await validateAllRows(config, log, inputs, {
      reportPath: join(runDir, VALIDATION_FILE),
      cachePath: scratch.path(PREPARED_CACHE),
    });
    charged = await chargeStage({ ...deps, now }, inputs, plannedRun, startedAt);
    const generatedAt = startedAt;
    const total = validation.summary.rows;
    const analysed = await analyseStage({
      config,
      runDir,
      scratch,
      planned: plannedRun,
      primaryCandidateId: inputs.sources.primary_candidate_id,
      rows: readValidatedRows(scratch.path(PREPARED_CACHE)),
      generatedAt,
      onCompound: (done) => {
        if (done % 1000 === 0 || done === total) log.info("analysing", { phase: "modules", done, total });
      },
    });
    log.info("writing outputs", {
      phase: "outputs",
      claim_strength: analysed.counts.claim_strength,
      coverage: analysed.counts.coverage_ratio,
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
      reportRowsPath: analysed.reportRowsPath,
    });
    return { ...sealed, runDir };
  } catch (error) {
    // Nothing was charged: leave nothing behind (a rerun starts clean either way).
    if (charged === null) await rm(runDir, { recursive: true, force: true });
    throw error;
  } finally {
    await scratch?.dispose();
  }
}

export interface RowValidation {
  readonly summary: ValidationSummary;
  readonly rdkitVersion: string;
}

/**
 * Stage 1 (rows): every row through the guards and RDKit in the worker pool, then the refusal
 * rule. Throws PORTFOLIO_INVALID before any charge.
 */
export async function validateAllRows(
  config: RunnerConfig,
  log: Logger,
  staged: StagedInputs,
  paths: { reportPath: string | null; cachePath: string | null },
): Promise<RowValidation> {
  const file = `01_sources/${basename(staged.portfolioPath)}`;
  const total = staged.portfolio.rowCount;
  log.info("validating rows", { phase: "inputs", rows: total, workers: config.workers });
  const pool = await CompoundPool.start({
    size: config.workers,
    timeoutMs: config.moleculeTimeoutSec * 1000,
    onReplace: (reason) =>
      log.warn("RDKit worker replaced; the row is unassessed", { phase: "inputs", reason }),
  });
  let summary: ValidationSummary;
  try {
    summary = await validateRows({
      rows: readPortfolioRows(staged.portfolioPath),
      pool,
      limits: { maxHeavyAtoms: config.maxHeavyAtoms, maxSmilesLength: config.maxSmilesLength },
      file,
      ...paths,
      onRow: (done) => {
        if (done % 1000 === 0 || done === total) log.info("validating", { phase: "inputs", done, total });
      },
    });
  } finally {
    await pool.close();
  }
  log.info("rows validated", {
    phase: "inputs",
    ok: summary.ok,
    invalid: summary.invalid,
    unassessed: summary.unassessed,
  });
  assertAcceptable(summary, config.maxInvalidFraction, file);
  return { summary, rdkitVersion: pool.rdkitVersion };
}
