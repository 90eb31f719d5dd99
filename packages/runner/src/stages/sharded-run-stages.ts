import { basename } from "node:path";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { type ChargeInput, type ChargeResult, charge } from "./charge-stage.ts";
import {
  DECIDED_MARK,
  markShard,
  mergeShards,
  openShardDir,
  PREPARED_MARK,
  shardCachePath,
  waitForShards,
} from "./shard-stage.ts";
import type { Stage, StageContext } from "./stage.ts";
import {
  assertAcceptable,
  mergeSummaries,
  recordValidation,
  type ValidationSummary,
} from "./validate-rows.ts";
import { type RowValidation, rowCounts, validateAllRows } from "./validate-stage.ts";

/**
 * The validate stage of one pod of a sharded run (issue 10 item 9): prepare this pod's slice,
 * wait for every slice, apply the refusal rule to the merged counts (every pod decides the same).
 * On a refusal it marks the decision, and index 0 waits for every pod's mark before the run
 * folder is removed (runAudit), once no pod reads it any more. The counts are the whole run's.
 */
export const shardedValidateStage: Stage<StagedInputs, RowValidation> = {
  name: "validate",
  async run(ctx, staged) {
    const { config, runDir } = ctx;
    const index = config.shardIndex;
    await openShardDir(runDir, index);
    // A slice's report is not written: index 0 writes the merged one after the decision (charge).
    const mine = await validateAllRows(ctx, {
      staged,
      files: { report: null, preparedRows: shardCachePath(runDir, index) },
      slice: { shards: config.shards, index },
    });
    await markShard(runDir, index, PREPARED_MARK, mine.summary);
    const all = await waitForShards(runDir, config.shards, PREPARED_MARK, shardWait(ctx));
    const summary = mergeSummaries(all as ValidationSummary[]);
    try {
      assertAcceptable(summary, config.maxInvalidFraction, portfolioFile(staged));
    } catch (error) {
      await decided(ctx);
      throw error;
    }
    return { summary, rdkitVersion: mine.rdkitVersion };
  },
  counts: (validation) => rowCounts(validation.summary),
};

/**
 * The charge stage of one pod of a sharded run: charge (idempotent: one run however many pods
 * call it), then mark the decision so index 0 knows shards/ is no longer read by anyone. The
 * other pods' part ends there, but for docking their slice (the structure stage); index 0 merges the
 * slices back in portfolio order, as one validation report and one prepared-row cache, and finishes
 * the run alone (runAudit removes shards/ once the structure stage merged the pods' docking).
 */
export const shardedChargeStage: Stage<ChargeInput, ChargeResult> = {
  name: "charge",
  async run(ctx, input) {
    const { config, runDir } = ctx;
    const charged = await charge(ctx, input);
    await decided(ctx);
    if (config.shardIndex !== 0) {
      ctx.log.info("shard done: index 0 finishes the run", { phase: "shards", shard: config.shardIndex });
      return { charged, finishesRun: false };
    }
    // The merge equals a single-pod validation; its summary equals the merged counts already decided on.
    await recordValidation(mergeShards(runDir, config.shards), {
      file: portfolioFile(input.staged),
      limits: { maxHeavyAtoms: config.maxHeavyAtoms, maxSmilesLength: config.maxSmilesLength },
      reportPath: ctx.validationFiles.report,
      cachePath: ctx.validationFiles.preparedRows,
    });
    // shards/ stays until the structure stage: every pod docks its own slice read from there and
    // leaves its records beside it (structure-stage.ts); runAudit removes it after that stage.
    return { charged, finishesRun: true };
  },
};

/** Marks this pod's decision; index 0 then waits for every pod's before touching shards/. */
async function decided(ctx: StageContext): Promise<void> {
  const { config, runDir } = ctx;
  await markShard(runDir, config.shardIndex, DECIDED_MARK, null);
  if (config.shardIndex === 0) await waitForShards(runDir, config.shards, DECIDED_MARK, shardWait(ctx));
}

function shardWait(ctx: StageContext) {
  return {
    timeoutMs: ctx.config.shardWaitSec * 1000,
    interruption: ctx.interruption,
    onWait: (missing: number[]) =>
      ctx.log.info("waiting for shards", { phase: "shards", missing: missing.join(",") }),
  };
}

function portfolioFile(staged: StagedInputs): string {
  return `01_sources/${basename(staged.portfolioPath)}`;
}
