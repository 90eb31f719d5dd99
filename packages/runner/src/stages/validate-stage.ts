import { basename, join } from "node:path";
import type { RunnerConfig } from "../config.ts";
import { readPortfolioRows } from "../inputs/portfolio.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { type Interruption, NO_INTERRUPTION, untilInterrupted } from "../interruption.ts";
import type { Logger } from "../log.ts";
import { memoryFields } from "../memory.ts";
import { UNREADABLE_THRESHOLD } from "../plan/module-plan.ts";
import { CompoundPool } from "../pool/compound-pool.ts";
import { createProgress } from "../progress.ts";
import { shardSlice } from "./shard-stage.ts";
import type { Stage } from "./stage.ts";
import {
  assertAcceptable,
  PREPARED_CACHE,
  VALIDATION_FILE,
  type ValidationSummary,
  validateRows,
} from "./validate-rows.ts";

/** What row validation found, and the RDKit version the workers ran. */
export interface RowValidation {
  readonly summary: ValidationSummary;
  readonly rdkitVersion: string;
}

/**
 * The validate stage of a run in one pod: every row, its report streamed to inputs/validation.json
 * and the prepared rows kept in scratch for the analysis; refused before any charge.
 */
export const validateStage: Stage<StagedInputs, RowValidation> = {
  name: "validate",
  run: (ctx, staged) =>
    validateAllRows(
      ctx.config,
      ctx.log,
      staged,
      { reportPath: join(ctx.runDir, VALIDATION_FILE), cachePath: ctx.scratch.path(PREPARED_CACHE) },
      ctx.interruption,
    ),
  counts: (validation) => rowCounts(validation.summary),
};

/** The status record's row counts of a validation. */
export function rowCounts(summary: ValidationSummary) {
  return {
    rows: summary.rows,
    rows_ok: summary.ok,
    rows_invalid: summary.invalid,
    rows_unassessed: summary.unassessed,
  };
}

/**
 * Row validation with its effects (the validate stage's, and `svc-runner validate`'s): a worker pool sized by the configuration, every row (or one
 * shard's slice) through the guards and RDKit, progress, then the refusal rule. Throws
 * PORTFOLIO_INVALID before any charge; a slice leaves the rule to the merged counts.
 */
export async function validateAllRows(
  config: RunnerConfig,
  log: Logger,
  staged: StagedInputs,
  paths: { reportPath: string | null; cachePath: string | null },
  interruption: Interruption = NO_INTERRUPTION,
  slice: { shards: number; index: number } | null = null,
): Promise<RowValidation> {
  const file = `01_sources/${basename(staged.portfolioPath)}`;
  const all = staged.portfolio.rowCount;
  // A slice (one shard) holds every shards-th row; the refusal rule waits for all slices.
  const total = slice === null ? all : Math.ceil((all - slice.index) / slice.shards);
  const rows = readPortfolioRows(staged.portfolioPath, staged.assays?.activities);
  log.info("validating rows", { phase: "inputs", rows: total, workers: config.workers });
  const pool = await CompoundPool.start({
    size: config.workers,
    warmUp: "prepare",
    timeoutMs: config.moleculeTimeoutSec * 1000,
    onReplace: (reason) =>
      log.warn("RDKit worker replaced; the row is unassessed", { phase: "inputs", reason }),
  });
  const validating = createProgress({ log, label: "validating", phase: "inputs", total });
  let summary: ValidationSummary;
  try {
    summary = await validateRows({
      rows: untilInterrupted(
        slice === null ? rows : shardSlice(rows, slice.shards, slice.index),
        interruption,
        "validate",
      ),
      pool,
      limits: { maxHeavyAtoms: config.maxHeavyAtoms, maxSmilesLength: config.maxSmilesLength },
      file,
      ...paths,
      onRow: (done) => validating.tick(done),
    });
    validating.finish(summary.rows);
  } finally {
    await pool.close();
  }
  log.info("rows validated", {
    phase: "inputs",
    ok: summary.ok,
    invalid: summary.invalid,
    unassessed: summary.unassessed,
    ...memoryFields(),
  });
  if (slice === null) {
    assertAcceptable(summary, config.maxInvalidFraction, file);
    // Said before the charge (issue 37 item 3): a run this much of whose portfolio cannot be read
    // is charged but cannot be SUPPORTED; the operator may still stop here.
    if (summary.rows > 0 && summary.invalid / summary.rows > UNREADABLE_THRESHOLD)
      log.warn(
        `${summary.invalid} of ${summary.rows} rows of ${file} cannot be read (more than ${UNREADABLE_THRESHOLD * 100}%): the run's claim strength will be HYPOTHESIS`,
        { phase: "inputs", invalid: summary.invalid, rows: summary.rows },
      );
  }
  return { summary, rdkitVersion: pool.rdkitVersion };
}
