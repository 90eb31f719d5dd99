import { basename, join } from "node:path";
import { structureToolVersions } from "@svc/science";
import type { StagedStructure } from "../inputs/structure-inputs.ts";
import { readStructureFile } from "../inputs/structure-inputs.ts";
import type { Logger } from "../log.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { structureResultFile } from "../outputs/structure-result-file.ts";
import type { ModuleWork } from "../plan/module-plan.ts";
import { createProgress } from "../progress.ts";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS } from "../structure/docking-cap.ts";
import type { StructureContext, StructureModule } from "../structure/structure-module.ts";
import { STRUCTURE_MODULES } from "../structure/structure-modules.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { Stage } from "./stage.ts";
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
  /** Compounds docked per structure; default `MOLECULAR_DOCKING_MAX_COMPOUNDS.default`. */
  readonly dockingMaxCompounds?: number;
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
  run: (ctx, input) =>
    runStructureModules({
      log: ctx.log,
      runDir: ctx.runDir,
      runId: ctx.config.runId,
      mode: ctx.config.mode,
      planned: input.planned,
      structures: input.structures,
      workDir: ctx.scratch.path("structures"),
      dockingMaxCompounds: ctx.config.dockingMaxCompounds,
      probeToolVersions: structureToolVersions,
      generatedAt: ctx.startedAt,
      rows: () => readValidatedRows(ctx.scratch.path(PREPARED_CACHE)),
      ...(input.compounds === undefined ? {} : { compounds: input.compounds }),
    }),
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
  let toolsCalled = false;
  for (const module of options.modules ?? STRUCTURE_MODULES) {
    if (!planned.has(module.id)) continue;
    if (module.callsTools === true && options.structures.length > 0) toolsCalled = true;
    try {
      const records = [];
      for (const staged of options.structures) records.push(await runOnStructure(module, staged, options));
      if (module.assessCompound !== undefined) work.push(workOf(module.id, records));
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
  if (reason === "cap") return "past the docking cap";
  const head = reason.split(":")[0] ?? reason;
  return head.length > 60 ? `${head.slice(0, 57)}...` : head;
}

async function runOnStructure(
  module: StructureModule,
  staged: StagedStructure,
  options: StructureStageOptions,
) {
  const started = Date.now();
  const parsed = await readStructureFile(staged.path, staged.format);
  const context: StructureContext = {
    staged,
    parsed,
    mode: options.mode,
    runDir: options.runDir,
    workDir: join(options.workDir, `${module.id}-${staged.index}`),
    dockingMaxCompounds: options.dockingMaxCompounds ?? MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
  };
  const result = await module.assessStructure(context);
  let compounds: unknown[] | undefined;
  if (module.assessCompound !== undefined) {
    compounds = [];
    // A line at least every 30 s with done/total and an ETA (issue 37 item 3): docking takes minutes a compound.
    const progress = createProgress({
      log: options.log,
      label: `${module.id} on ${basename(staged.path)}`,
      phase: "structures",
      total: options.compounds ?? 0,
    });
    try {
      for await (const row of options.rows()) {
        if (!row.compound.ok) continue;
        compounds.push(await module.assessCompound(context, result, row.compound));
        progress.tick(compounds.length);
      }
    } finally {
      // Also when the module throws: the heartbeat stops with the module.
      progress.finish(compounds.length);
    }
  }
  options.log.info("structure module done", {
    phase: "structures",
    module: module.id,
    structure: basename(staged.path),
    ms: Date.now() - started,
  });
  return {
    index: staged.index,
    file: `01_sources/${staged.entry.file}`,
    format: staged.format,
    chains: staged.chains,
    target: staged.entry.target,
    pocket_from: staged.entry.box !== null ? "box" : staged.entry.ligand,
    result,
    ...(compounds === undefined ? {} : { compounds }),
  };
}
