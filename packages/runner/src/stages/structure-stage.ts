import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { structureToolVersions } from "@svc/science";
import type { StagedStructure } from "../inputs/structure-inputs.ts";
import { readStructureFile } from "../inputs/structure-inputs.ts";
import type { Logger } from "../log.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { structureResultFile } from "../outputs/structure-result-file.ts";
import type { ModuleWork } from "../plan/module-plan.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";
import { createProgress } from "../progress.ts";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS } from "../structure/docking-cap.ts";
import type { StructureContext, StructureModule } from "../structure/structure-module.ts";
import { STRUCTURE_MODULES } from "../structure/structure-modules.ts";
import type { PlannedRun } from "./plan-stage.ts";
import { shardCachePath, shardDir, waitForShards } from "./shard-stage.ts";
import type { Stage, StageContext } from "./stage.ts";
import { PREPARED_CACHE, readValidatedRows, type ValidatedRow } from "./validate-stage.ts";

export interface StructureStageOptions {
  readonly log: Logger;
  readonly runDir: string;
  readonly runId: string;
  readonly mode: string;
  readonly planned: PlannedRun;
  readonly structures: readonly StagedStructure[];
  readonly generatedAt: string;
  /** The validated rows in portfolio order, read again for each module that works per compound. */
  readonly rows: () => AsyncIterable<ValidatedRow>;
  /** Scratch space (inside the run's scratch folder) for the modules' working files. */
  readonly workDir: string;
  /** Parsed compounds, for the progress lines' total and ETA; unknown: counted as they come. */
  readonly compounds?: number;
  /** The structure modules to run when planned; default {@link STRUCTURE_MODULES}. */
  readonly modules?: readonly StructureModule[];
  /** Compounds docked per structure by this pod; default `MOLECULAR_DOCKING_MAX_COMPOUNDS.default`. */
  readonly dockingMaxCompounds?: number;
  /**
   * Calls of a pooled module's `assessCompounds` at once (the run's workers, one per core by
   * default): each `vina` runs on one core, so one call per core keeps every core busy. Default 1.
   */
  readonly lanes?: number;
  /** A sharded run (issue 39 item 2): pooled modules dock only this pod's slice; see {@link StructureShard}. */
  readonly shard?: StructureShard;
  /**
   * Probes the versions of the programs the structure modules call, once when a module ran (for
   * `repro_pack/environment/structure-tools.json`); none: nothing is probed.
   */
  readonly probeToolVersions?: () => Promise<unknown>;
}

export interface StructureStageResult {
  /** module id -> error, for structure modules that threw (the plan marks them failed). */
  readonly failures: ReadonlyMap<string, string>;
  /** The result files written, relative to the run folder. */
  readonly files: readonly string[];
  /** The structure tools' versions when a structure module ran and a probe was given, else null. */
  readonly toolVersions: unknown;
  /**
   * Per module that works per compound (docking): compound–structure pairs assessed of those it
   * should, and why the rest were not, for the claim strength (issue 37 item 3).
   */
  readonly work: readonly ModuleWork[];
}

export { structureResultFile };

/**
 * A sharded run's structure stage (issue 39 item 2): a pooled module (one with `assessCompounds`,
 * docking) is split by compound across the Indexed Job's pods exactly as validation is, pod k
 * taking rows k+1, k+1+N, … (its rows are already its own slice of the portfolio). Every pod other
 * than index 0 runs only the pooled modules and leaves its records in `shards/<k>/`; index 0 docks
 * its own slice, waits for every pod's, and merges them into one `results/<module>.json` in
 * portfolio order. Each pod's docking cap is its own budget, so N pods dock N times as many.
 */
export interface StructureShard {
  readonly index: number;
  readonly count: number;
  /** How long index 0 waits for the other pods' records (`--shard-wait-sec`). */
  readonly waitMs: number;
  readonly interruption: StageContext["interruption"];
}

/** A pod's records of one pooled module, for index 0 to merge (`shards/<k>/structure-<module>.json`). */
interface ShardRecords {
  readonly schema: "svc.structure-shard/v1";
  readonly module_id: string;
  /** Set when the module threw in that pod: index 0 marks the module failed with it. */
  readonly error: string | null;
  readonly structures: readonly {
    readonly index: number;
    readonly compounds: readonly { readonly row: number; readonly record: unknown }[];
  }[];
}

function shardRecordsFile(moduleId: string): string {
  return `structure-${moduleId}.json`;
}

/** What the structure stage needs from earlier stages. */
export interface StructureInput {
  readonly planned: PlannedRun;
  readonly structures: readonly StagedStructure[];
  /** Parsed compounds (validation), the total of the per-compound progress lines. */
  readonly compounds?: number;
}

/** The structure stage (issue 25): the structure modules, once per staged structure, inside the charged run. */
export const structureStage: Stage<StructureInput, StructureStageResult> = {
  name: "structure",
  run: (ctx, input) => {
    const { config } = ctx;
    const sharded = config.shards > 1;
    // A pod other than index 0 has only its own slice (shards/<k>/), index 0 the merged rows.
    const rowsFile =
      sharded && config.shardIndex !== 0
        ? shardCachePath(ctx.runDir, config.shardIndex)
        : ctx.scratch.path(PREPARED_CACHE);
    return runStructureModules({
      log: ctx.log,
      runDir: ctx.runDir,
      runId: config.runId,
      mode: config.mode,
      planned: input.planned,
      structures: input.structures,
      workDir: ctx.scratch.path("structures"),
      dockingMaxCompounds: config.dockingMaxCompounds,
      lanes: config.workers,
      probeToolVersions: structureToolVersions,
      generatedAt: ctx.startedAt,
      rows: () => readValidatedRows(rowsFile),
      ...(input.compounds === undefined ? {} : { compounds: input.compounds }),
      ...(sharded
        ? {
            shard: {
              index: config.shardIndex,
              count: config.shards,
              waitMs: config.shardWaitSec * 1000,
              interruption: ctx.interruption,
            },
          }
        : {}),
    });
  },
};

/**
 * The structure modules (issue 25): after the charge and before the per-compound analysis, every
 * planned structure module runs over every staged structure (and, for a module with
 * `assessCompound`, every parsed compound of the portfolio), writing `results/<module>.json` with
 * its method card. A module that throws is `failed` in the plan with its error; the run goes on.
 */
export async function runStructureModules(options: StructureStageOptions): Promise<StructureStageResult> {
  const planned = new Set(
    options.planned.plan.modules
      .filter((entry) => entry.outcome === "planned")
      .map((entry) => entry.module_id),
  );
  const failures = new Map<string, string>();
  const files: string[] = [];
  const work: ModuleWork[] = [];
  const { shard } = options;
  const slicePod = shard !== undefined && shard.index !== 0;
  let toolsCalled = false;
  for (const module of options.modules ?? STRUCTURE_MODULES) {
    if (!planned.has(module.id)) continue;
    const pooled = module.assessCompounds !== undefined;
    // A pod other than index 0 runs only the modules split by compound; index 0 runs the rest alone.
    if (slicePod && !pooled) continue;
    if (module.callsTools === true && options.structures.length > 0) toolsCalled = true;
    try {
      const runs = [];
      try {
        for (const staged of options.structures) runs.push(await runOnStructure(module, staged, options));
      } catch (error) {
        if (shard !== undefined && pooled) await leaveShardRecords(options, shard, module.id, [], error);
        throw error;
      }
      // How many were done and why not the rest, in the log as in the plan's claim reasons.
      const logWork = (done: ModuleWork, of: number | "merged" | null) =>
        options.log.info("structure module work", {
          phase: "structures",
          module: module.id,
          assessed: done.assessed,
          expected: done.expected,
          not_done: JSON.stringify(done.not_done),
          ...(of === null ? {} : { shard: of }),
        });
      if (shard !== undefined && pooled) {
        await leaveShardRecords(options, shard, module.id, runs, null);
        logWork(
          workOf(
            module.id,
            runs.map((run) => run.record),
          ),
          shard.index,
        );
        if (slicePod) continue;
        await mergeShardRecords(options, shard, module.id, runs);
      }
      const records = runs.map((run) => run.record);
      if (module.assessCompound !== undefined || pooled) {
        const done = workOf(module.id, records);
        work.push(done);
        logWork(done, shard !== undefined && pooled ? "merged" : null);
      }
      const file = structureResultFile(module.id);
      await writeJsonAtomic(join(options.runDir, file), {
        schema: "svc.structure-module/v1",
        module_id: module.id,
        module_version: module.version,
        run_id: options.runId,
        mode: options.mode,
        generated_at: options.generatedAt,
        risk_channel: module.riskChannel,
        status: "executed",
        method: module.method,
        structures: records,
      });
      files.push(file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures.set(module.id, message);
      options.log.warn("structure module failed; the run goes on", {
        phase: "structures",
        module: module.id,
        error: message,
      });
    }
  }
  const toolVersions = toolsCalled && options.probeToolVersions ? await options.probeToolVersions() : null;
  return { failures, files, toolVersions, work };
}

/** Writes this pod's records of a pooled module into `shards/<k>/` (index 0 too: the wait counts every pod). */
async function leaveShardRecords(
  options: StructureStageOptions,
  shard: StructureShard,
  moduleId: string,
  runs: readonly StructureRun[],
  error: unknown,
): Promise<void> {
  const records: ShardRecords = {
    schema: "svc.structure-shard/v1",
    module_id: moduleId,
    error: error === null ? null : error instanceof Error ? error.message : String(error),
    structures: runs.map((run) => ({
      index: run.record.index,
      compounds: (run.record.compounds ?? []).map((record, at) => ({ row: run.rows[at] as number, record })),
    })),
  };
  await writeJsonAtomic(join(shardDir(options.runDir, shard.index), shardRecordsFile(moduleId)), {
    ...records,
    // waitForShards reads a mark's `summary`; this mark has none.
    summary: null,
  });
}

/**
 * Index 0: waits for every pod's records of a pooled module and merges them into its own runs, each
 * structure's compounds in portfolio (row) order; a pod whose module threw fails the module here.
 */
async function mergeShardRecords(
  options: StructureStageOptions,
  shard: StructureShard,
  moduleId: string,
  runs: StructureRun[],
): Promise<void> {
  const file = shardRecordsFile(moduleId);
  await waitForShards(options.runDir, shard.count, file, {
    timeoutMs: shard.waitMs,
    interruption: shard.interruption,
    onWait: (missing) =>
      options.log.info("waiting for shards' docking", {
        phase: "structures",
        module: moduleId,
        missing: missing.join(","),
      }),
  });
  const entries = new Map<number, { row: number; record: unknown }[]>();
  for (let index = 0; index < shard.count; index++) {
    const records = JSON.parse(
      await readFile(join(shardDir(options.runDir, index), file), "utf8"),
    ) as ShardRecords;
    if (records.error !== null) throw new Error(`shard ${index}: ${records.error}`);
    for (const structure of records.structures)
      entries.set(structure.index, [...(entries.get(structure.index) ?? []), ...structure.compounds]);
  }
  for (const [at, run] of runs.entries()) {
    const merged = (entries.get(run.record.index) ?? []).sort((a, b) => a.row - b.row);
    runs[at] = {
      record: { ...run.record, compounds: merged.map((entry) => entry.record) },
      rows: merged.map((entry) => entry.row),
    };
  }
}

/**
 * How much of its work a per-compound structure module did over every structure: a record whose
 * status is "not_assessed" was not done, grouped by its reason's first words ("cap", a time budget,
 * a preparation failure).
 */
export function workOf(
  moduleId: string,
  records: readonly { readonly compounds?: readonly unknown[] }[],
): ModuleWork {
  let assessed = 0;
  let expected = 0;
  const notDone: Record<string, number> = {};
  for (const record of records)
    for (const compound of record.compounds ?? []) {
      expected++;
      const entry = compound as { status?: unknown; reason?: unknown };
      if (entry.status !== "not_assessed") {
        assessed++;
        continue;
      }
      const reason = reasonKey(typeof entry.reason === "string" ? entry.reason : "not assessed");
      notDone[reason] = (notDone[reason] ?? 0) + 1;
    }
  return { module_id: moduleId, assessed, expected, not_done: notDone };
}

/** A reason's kind: "cap" as it is, otherwise its text up to the first colon, bounded. */
function reasonKey(reason: string): string {
  // The cap is each pod's budget (--docking-max-compounds): more pods dock more.
  if (reason === "cap") return "past the per-pod docking budget";
  const head = reason.split(":")[0] ?? reason;
  return head.length > 60 ? `${head.slice(0, 57)}...` : head;
}

/** One structure's record in `results/<module>.json`, and the portfolio row of each compound record. */
interface StructureRun {
  readonly record: {
    readonly index: number;
    readonly compounds?: readonly unknown[];
    readonly [field: string]: unknown;
  };
  readonly rows: readonly number[];
}

async function runOnStructure(
  module: StructureModule,
  staged: StagedStructure,
  options: StructureStageOptions,
): Promise<StructureRun> {
  const started = Date.now();
  const parsed = await readStructureFile(staged.path, staged.format);
  const context: StructureContext = {
    staged,
    parsed,
    mode: options.mode,
    runDir: options.runDir,
    workDir: join(options.workDir, `${module.id}-${staged.index}`),
    dockingMaxCompounds: options.dockingMaxCompounds ?? MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
    workers: options.lanes ?? 1,
  };
  const result = await module.assessStructure(context);
  let compounds: unknown[] | undefined;
  const rows: number[] = [];
  if (module.assessCompound !== undefined || module.assessCompounds !== undefined) {
    const done: unknown[] = [];
    compounds = done;
    let finished = 0;
    // A line at least every 30 s with done/total and an ETA (issue 37 item 3): docking takes minutes a compound.
    const progress = createProgress({
      log: options.log,
      label: `${module.id} on ${basename(staged.path)}`,
      phase: "structures",
      total: options.compounds ?? 0,
    });
    try {
      await forEachChunk(
        options.rows(),
        // Only the pooled modules are split by compound; index 0 runs the others over every compound.
        module.assessCompounds === undefined ? undefined : options.shard,
        module.assessCompounds === undefined ? 1 : Math.max(1, module.compoundChunk ?? 1),
        module.assessCompounds === undefined ? 1 : Math.max(1, options.lanes ?? 1),
        async (chunk, first) => {
          const records =
            module.assessCompounds !== undefined
              ? await module.assessCompounds(
                  context,
                  result,
                  chunk.map((entry) => entry.compound),
                )
              : [
                  await (module.assessCompound as NonNullable<StructureModule["assessCompound"]>)(
                    context,
                    result,
                    chunk[0]?.compound as PortableCompound,
                  ),
                ];
          for (const [offset, record] of records.entries()) {
            done[first + offset] = record;
            rows[first + offset] = chunk[offset]?.compound.row.index as number;
          }
          finished += records.length;
          progress.tick(finished);
        },
      );
    } finally {
      // Also when the module throws: the heartbeat stops with the module.
      progress.finish(finished);
    }
  }
  options.log.info("structure module done", {
    phase: "structures",
    module: module.id,
    structure: basename(staged.path),
    ms: Date.now() - started,
  });
  return {
    record: {
      index: staged.index,
      file: `01_sources/${staged.entry.file}`,
      format: staged.format,
      chains: staged.chains,
      target: staged.entry.target,
      pocket_from: staged.entry.box !== null ? "box" : staged.entry.ligand,
      result,
      ...(compounds === undefined ? {} : { compounds }),
    },
    rows,
  };
}

/**
 * The bounded pool of the per-compound work (issue 39 item 2): parsed rows (of this pod's slice in a
 * sharded run) in chunks of `chunk`, up to `lanes` chunks in work at once, each started in portfolio
 * order and given its first position, so results land in portfolio order whatever finishes first.
 * Rows are read only as a lane frees up: memory holds `lanes × chunk` compounds, not the portfolio.
 * The first error stops new chunks and is thrown once the running ones settle.
 */
async function forEachChunk(
  rows: AsyncIterable<ValidatedRow>,
  shard: StructureShard | undefined,
  chunk: number,
  lanes: number,
  work: (chunk: readonly ValidatedRow[], first: number) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  let position = 0;
  let pending: ValidatedRow[] = [];
  const start = async () => {
    const batch = pending;
    pending = [];
    const first = position;
    position += batch.length;
    const task: Promise<void> = work(batch, first).then(
      () => {
        running.delete(task);
      },
      (error: unknown) => {
        running.delete(task);
        failure ??= { error };
      },
    );
    running.add(task);
    while (running.size >= lanes && failure === null) await Promise.race(running);
  };
  for await (const row of rows) {
    if (failure !== null) break;
    if (!row.compound.ok) continue;
    if (shard !== undefined && (row.compound.row.index - 1) % shard.count !== shard.index) continue;
    pending.push(row);
    if (pending.length >= chunk) await start();
  }
  if (pending.length > 0 && failure === null) await start();
  await Promise.all(running);
  if (failure !== null) throw (failure as { error: unknown }).error;
}
