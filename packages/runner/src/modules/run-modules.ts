import { join } from "node:path";
import type { AnalysisModule, CompoundFinding, ModuleAnalyzer, PreparedCompound } from "@svc/science";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";

/** Receives each compound with every module's finding, in portfolio order. */
export type CompoundSink = (
  compound: PreparedCompound,
  findings: ReadonlyMap<string, CompoundFinding>,
) => Promise<void>;

export interface RunModulesOptions {
  /** Prepared compounds in portfolio order (the worker pool keeps that order). */
  readonly compounds: AsyncIterable<PreparedCompound>;
  readonly modules: readonly AnalysisModule[];
  readonly rawDir: string;
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
  readonly analyzer: ModuleAnalyzer;
  readonly raw: JsonArrayWriter;
  failed: string | null;
}

/**
 * The module framework: streams prepared compounds through every module, writing
 * `raw/<module_id>_raw.json` as it goes (common shape, domain notes), one compound at a time so
 * memory stays flat. Analyzers run here, in order, because some keep run state (duplicates by
 * parent InChIKey); the costly RDKit preparation happens before, in the worker pool. A module
 * that throws is marked failed; the others continue.
 */
export async function runModules(options: RunModulesOptions): Promise<ModuleRunResult> {
  const running: Running[] = [];
  for (const module of options.modules) {
    const raw = await JsonArrayWriter.open(
      join(options.rawDir, `${module.id}_raw.json`),
      { ...rawFields(module, options.generatedAt), status: "executed", reason: null },
      ["result", "compounds"],
    );
    running.push({ module, analyzer: module.createAnalyzer(), raw, failed: null });
  }
  let done = 0;
  try {
    for await (const compound of options.compounds) {
      const findings = new Map<string, CompoundFinding>();
      for (const entry of running) {
        if (entry.failed !== null) continue;
        try {
          // `findings` so far: modules that read others (registry order puts them last) see them.
          const finding = entry.analyzer.analyze(compound, findings);
          findings.set(entry.module.id, finding);
          await entry.raw.push(finding);
        } catch (error) {
          entry.failed = `candidate ${compound.row.candidateId}: ${(error as Error).message}`;
        }
      }
      await options.sink(compound, findings);
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
        summary = entry.analyzer.finish();
      } catch (error) {
        entry.failed = `summary: ${(error as Error).message}`;
      }
    }
    if (entry.failed !== null) {
      await entry.raw.abort();
      failures.set(entry.module.id, entry.failed);
      await writeRawRecord(options.rawDir, entry.module.id, {
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
export function writeRawRecord(rawDir: string, moduleId: string, record: object): Promise<void> {
  return writeJsonAtomic(join(rawDir, `${moduleId}_raw.json`), record);
}
