import { basename, join } from "node:path";
import { readPortfolioRows } from "../inputs/portfolio.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { untilInterrupted } from "../interruption.ts";
import { memoryFields } from "../memory.ts";
import type { Scratch } from "../outputs/scratch.ts";
import { UNREADABLE_THRESHOLD } from "../plan/module-plan.ts";
import { CompoundPool } from "../pool/compound-pool.ts";
import { createProgress } from "../progress.ts";
import { shardSlice } from "./shard-stage.ts";
import type { PreChargeContext, Stage, ValidationFiles } from "./stage.ts";
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
 * Stage 2, validate, in one pod: every row, its report streamed to where the context says
 * (inputs/validation.json in a run) and the prepared rows kept for the analysis; refused before any
 * charge. `svc-runner validate` runs this same stage, with nowhere to keep the prepared rows.
 */
export const validateStage: Stage<StagedInputs, RowValidation, PreChargeContext> = {
  name: "validate",
  run: (ctx, staged) => validateAllRows(ctx, { staged, files: ctx.validationFiles }),
  counts: (validation) => rowCounts(validation.summary),
};

/** Where a run's validation writes: inputs/validation.json in the run folder, the prepared rows in scratch. */
export function runValidationFiles(runDir: string, scratch: Pick<Scratch, "path">): ValidationFiles {
  return { report: join(runDir, VALIDATION_FILE), preparedRows: scratch.path(PREPARED_CACHE) };
}

/** The status record's row counts of a validation. */
export function rowCounts(summary: ValidationSummary) {
  return {
    rows: summary.rows,
    rows_ok: summary.ok,
    rows_invalid: summary.invalid,
    rows_unassessed: summary.unassessed,
  };
}

/** What {@link validateAllRows} validates and where it writes. */
export interface ValidateAllRowsInput {
  readonly staged: StagedInputs;
  readonly files: ValidationFiles;
  /** One shard's slice (every `shards`-th row from `index`); none: the whole portfolio. */
  readonly slice?: { readonly shards: number; readonly index: number };
}

/**
 * Row validation with its effects (the validate stage's, one pod's or one shard's): a worker pool
 * sized by the configuration, every row (or one shard's slice) through the guards and RDKit,
 * progress, then the refusal rule. Throws PORTFOLIO_INVALID before any charge; a slice leaves the
 * rule to the merged counts.
 */
export async function validateAllRows(
  ctx: Pick<PreChargeContext, "config" | "log" | "interruption">,
  input: ValidateAllRowsInput,
): Promise<RowValidation> {
  const { config, log, interruption } = ctx;
  const { staged, slice } = input;
  const file = `01_sources/${basename(staged.portfolioPath)}`;
  const all = staged.portfolio.rowCount;
  // A slice (one shard) holds every shards-th row; the refusal rule waits for all slices.
  const total = slice === undefined ? all : Math.ceil((all - slice.index) / slice.shards);
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
        slice === undefined ? rows : shardSlice(rows, slice.shards, slice.index),
        interruption,
        "validate",
      ),
      pool,
      limits: { maxHeavyAtoms: config.maxHeavyAtoms, maxSmilesLength: config.maxSmilesLength },
      file,
      reportPath: input.files.report,
      cachePath: input.files.preparedRows,
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
  if (slice === undefined) {
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
