import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { readLines } from "../inputs/read-lines.ts";
import { assertNotInterrupted, type Interruption } from "../interruption.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { RunnerError } from "../runner-error.ts";
import type { ValidatedRow, ValidationSummary } from "./validate-rows.ts";

/**
 * Sharded runs (issue 10 item 9): the pods of a Kubernetes Indexed Job share one run folder on
 * shared storage. Pod k prepares rows k+1, k+1+N, … (round robin, so slow regions of a portfolio
 * spread over all pods) into `shards/<k>/`, then marks itself done. Every pod waits for all
 * done marks and decides the refusal rule on the merged counts, so all refuse or all go on.
 * Index 0 then merges the slices back into portfolio order and finishes the run alone.
 */
export const SHARDS_DIR = "shards";
const PREPARED = "prepared.jsonl";
/** Slice prepared; holds the slice's validation summary. */
export const PREPARED_MARK = "done.json";
/** Refusal decided (and, when accepted, the charge made): nothing of shards/ is read any more. */
export const DECIDED_MARK = "decided.json";

export function shardDir(runDir: string, index: number): string {
  return join(runDir, SHARDS_DIR, String(index));
}

/** A fresh, empty `shards/<index>/` (a restarted pod redoes its slice). */
export async function openShardDir(runDir: string, index: number): Promise<string> {
  const dir = shardDir(runDir, index);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

export function shardCachePath(runDir: string, index: number): string {
  return join(shardDir(runDir, index), PREPARED);
}

/** This pod's slice of the portfolio. */
export async function* shardSlice(
  rows: AsyncIterable<PortfolioRow>,
  shards: number,
  index: number,
): AsyncGenerator<PortfolioRow> {
  for await (const row of rows) if ((row.index - 1) % shards === index) yield row;
}

/** Writes a mark of this shard, atomically (the other pods poll for it). */
export function markShard(
  runDir: string,
  index: number,
  mark: string,
  summary: ValidationSummary | null,
): Promise<void> {
  return writeJsonAtomic(join(shardDir(runDir, index), mark), {
    schema: "svc.shard-mark/v1",
    index,
    summary,
  });
}

/** Waits until every shard has written `mark`; the summaries they wrote, in index order. */
export async function waitForShards(
  runDir: string,
  shards: number,
  mark: string,
  options: {
    timeoutMs: number;
    interruption: Interruption;
    pollMs?: number;
    onWait?: (missing: number[]) => void;
  },
): Promise<(ValidationSummary | null)[]> {
  const deadline = Date.now() + options.timeoutMs;
  let lastReport = 0;
  for (;;) {
    const summaries = await Promise.all(
      Array.from({ length: shards }, async (_, index) => {
        try {
          const done = JSON.parse(await readFile(join(shardDir(runDir, index), mark), "utf8"));
          return { summary: done.summary as ValidationSummary | null };
        } catch {
          return null;
        }
      }),
    );
    const missing = summaries.flatMap((found, index) => (found === null ? [index] : []));
    if (missing.length === 0) return summaries.map((found) => found?.summary ?? null);
    assertNotInterrupted(options.interruption, "shard wait");
    if (Date.now() > deadline) {
      throw new RunnerError(
        "SHARDS_INCOMPLETE",
        `shards ${missing.join(", ")} of ${shards} did not finish within ${Math.round(options.timeoutMs / 1000)} s`,
      );
    }
    if (Date.now() - lastReport > 30_000) {
      options.onWait?.(missing);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}

/** Every shard's prepared rows merged back into portfolio order (the inverse of shardSlice). */
export async function* mergeShards(runDir: string, shards: number): AsyncGenerator<ValidatedRow> {
  const readers = Array.from({ length: shards }, (_, index) => readLines(shardCachePath(runDir, index)));
  try {
    for (let turn = 0; ; turn = (turn + 1) % shards) {
      const next = await (readers[turn] as AsyncGenerator<string>).next();
      if (next.done === true || next.value === "") return;
      yield JSON.parse(next.value) as ValidatedRow;
    }
  } finally {
    for (const reader of readers) await reader.return(undefined);
  }
}

/** Removes `shards/` once merged: the outputs equal a single-process run's. */
export function removeShards(runDir: string): Promise<void> {
  return rm(join(runDir, SHARDS_DIR), { recursive: true, force: true });
}
