import { basename } from "node:path";
import type { RunnerConfig } from "../config.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import type { Interruption } from "../interruption.ts";
import type { Logger } from "../log.ts";
import type { ChargedRun } from "./charge-stage.ts";
import {
  DECIDED_MARK,
  markShard,
  openShardDir,
  PREPARED_MARK,
  shardCachePath,
  waitForShards,
} from "./shard-stage.ts";
import { validateAllRows } from "./validate-all-rows.ts";
import { assertAcceptable, mergeSummaries, type ValidationSummary } from "./validate-stage.ts";

/**
 * Stage 1 and 3 for one pod of a sharded run: prepare this pod's slice, wait for every slice,
 * apply the refusal rule to the merged counts (every pod decides the same), charge (idempotent:
 * one run however many pods call it), then mark the decision so index 0 knows shards/ is no
 * longer read by anyone.
 */
export async function validateShard(
  config: RunnerConfig,
  log: Logger,
  staged: StagedInputs,
  runDir: string,
  interruption: Interruption,
  charge: () => Promise<ChargedRun>,
): Promise<{ charged: ChargedRun; rdkitVersion: string }> {
  const index = config.shardIndex;
  await openShardDir(runDir, index);
  const mine = await validateAllRows(
    config,
    log,
    staged,
    { reportPath: null, cachePath: shardCachePath(runDir, index) },
    interruption,
    { shards: config.shards, index },
  );
  await markShard(runDir, index, PREPARED_MARK, mine.summary);
  const wait = {
    timeoutMs: config.shardWaitSec * 1000,
    interruption,
    onWait: (missing: number[]) =>
      log.info("waiting for shards", { phase: "shards", missing: missing.join(",") }),
  };
  const all = await waitForShards(runDir, config.shards, PREPARED_MARK, wait);
  const summary = mergeSummaries(all as ValidationSummary[]);
  try {
    assertAcceptable(summary, config.maxInvalidFraction, `01_sources/${basename(staged.portfolioPath)}`);
  } catch (error) {
    await markShard(runDir, index, DECIDED_MARK, null);
    // Index 0 removes the refused run's folder (runAudit), once no pod reads it any more.
    if (index === 0) await waitForShards(runDir, config.shards, DECIDED_MARK, wait);
    throw error;
  }
  const charged = await charge();
  await markShard(runDir, index, DECIDED_MARK, null);
  if (index === 0) await waitForShards(runDir, config.shards, DECIDED_MARK, wait);
  return { charged, rdkitVersion: mine.rdkitVersion };
}
