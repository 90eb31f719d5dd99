import { join } from "node:path";
import { runPath } from "@svc/core";
import type {
  AnalysisContext,
  AnalysisModule,
  CompoundFinding,
  ModuleRun,
  UpstreamFindings,
} from "@svc/science/modules";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import type { CompoundAnalysis } from "../pool/compound-worker.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";

/** One compound for the modules: its preparation and what the pool's workers assessed of it. */
export interface AnalysisItem {
  readonly compound: PortableCompound;
  /** The modules' assessments, made in the worker pool; null when none were (the compound did not parse). */
  readonly analysis: CompoundAnalysis | null;
}

/**
 * Receives each compound with every module's finding, in portfolio order, and each finding's JSON
 * as its raw/ file holds it (the same `JSON.stringify`, made once: issue 42 item 2).
 */
export type CompoundSink = (
  item: AnalysisItem,
  findings: ReadonlyMap<string, CompoundFinding>,
  findingsJson: ReadonlyMap<string, string>,
) => Promise<void>;

export interface RunModulesOptions {
  /** Compounds in portfolio order (the worker pool keeps that order). */
  readonly items: AsyncIterable<AnalysisItem>;
  readonly modules: readonly AnalysisModule[];
  /** Project-level inputs (the staged targets) handed to every analyzer; none when omitted. */
  readonly context?: AnalysisContext;
  /** The run folder: each module writes its `raw/<module>_raw.json` (core RUN_FILES.moduleRaw). */
  readonly runDir: string;
  readonly generatedAt: string;
  readonly sink: CompoundSink;
  /** Called after every compound with the count done so far (progress reporting throttles it). */
  readonly onCompound?: (done: number) => void;
}

export interface ModuleRunResult {
  readonly summaries: ReadonlyMap<string, unknown>;
  /** module id -> error message, for modules that failed (the others still ran). */
  readonly failures: ReadonlyMap<string, string>;
  readonly compounds: number;
}

interface Running {
  readonly module: AnalysisModule;
  readonly run: ModuleRun;
  readonly raw: JsonArrayWriter;
  failed: string | null;
}

/**
 * The module framework: streams compounds through every module, writing
 * `raw/<module_id>_raw.json` as it goes (common shape, domain notes), one compound at a time so
 * memory stays flat. The per-compound RDKit work of every module was done in the worker pool
 * (`assess`); here, in portfolio order, its `merge` folds it into the run state (duplicates by
 * parent InChIKey, counts). No RDKit on this thread. A module that throws is marked failed; the
 * others continue.
 */
export async function runModules(options: RunModulesOptions): Promise<ModuleRunResult> {
  const running: Running[] = [];
  for (const module of options.modules) {
    const raw = await JsonArrayWriter.open(
      join(options.runDir, runPath("moduleRaw", { module: module.id })),
      { ...rawFields(module, options.generatedAt), status: "executed", reason: null },
      ["result", "compounds"],
    );
    running.push({ module, run: module.createRun(options.context), raw, failed: null });
  }
  let done = 0;
  try {
    for await (const item of options.items) {
      const { compound } = item;
      const findings = new Map<string, CompoundFinding>();
      const findingsJson = new Map<string, string>();
      for (const entry of running) {
        if (entry.failed !== null) continue;
        try {
          // `findings` so far: modules that read others (registry order puts them last) see them.
          const finding = findingOf(entry, item, findings);
          const json = JSON.stringify(finding);
          findings.set(entry.module.id, finding);
          findingsJson.set(entry.module.id, json);
          await entry.raw.pushJson(json);
        } catch (error) {
          entry.failed = `candidate ${compound.row.candidateId}: ${(error as Error).message}`;
        }
      }
      await options.sink(item, findings, findingsJson);
      done++;
      options.onCompound?.(done);
    }
  } catch (error) {
    for (const entry of running) await entry.raw.abort();
    throw error;
  }
  const summaries = new Map<string, unknown>();
  const failures = new Map<string, string>();
  for (const entry of running) {
    let summary: unknown = null;
    if (entry.failed === null) {
      try {
        summary = entry.run.finish();
      } catch (error) {
        entry.failed = `summary: ${(error as Error).message}`;
      }
    }
    if (entry.failed !== null) {
      await entry.raw.abort();
      failures.set(entry.module.id, entry.failed);
      await writeRawRecord(options.runDir, entry.module.id, {
        ...rawFields(entry.module, options.generatedAt),
        status: "failed",
        reason: entry.failed,
        result: null,
        evidence_ids: [],
      });
      continue;
    }
    summaries.set(entry.module.id, summary);
    const summaryEid = `EID-${entry.module.id}-summary`;
    await entry.raw.close([
      { summary: { evidence_id: summaryEid, ...(summary as object) } },
      { evidence_ids: [summaryEid] },
    ]);
  }
  return { summaries, failures, compounds: done };
}

/** One module's finding for one compound, merged from the worker's assessment. */
function findingOf(entry: Running, item: AnalysisItem, upstream: UpstreamFindings): CompoundFinding {
  const { module, run } = entry;
  const assessment = item.analysis?.assessments[module.id];
  if (assessment === undefined) {
    // No worker assessed it (the compound does not parse or was unassessed): `assess` of such a
    // compound is defineModule's not-assessed finding, which needs no RDKit, so it is made here.
    if (item.compound.ok) throw new Error("no assessment came back from the worker pool");
    return run.merge(module.assess(item.compound), upstream);
  }
  if (!assessment.ok) throw new Error(assessment.error);
  // The value is what this module's own `assess` returned in the worker (structured-cloned).
  return run.merge(assessment.value, upstream);
}

function rawFields(module: AnalysisModule, generatedAt: string) {
  return {
    module_id: module.id,
    module_version: module.version,
    generated_at: generatedAt,
    risk_channel: module.riskChannel,
    metadata: { description: module.description, required_inputs: module.requiredInputs },
  };
}

/** A raw record for a module that did not execute (not_available, missing_input, failed). */
export function writeRawRecord(runDir: string, moduleId: string, record: object): Promise<void> {
  return writeJsonAtomic(join(runDir, runPath("moduleRaw", { module: moduleId })), record);
}
