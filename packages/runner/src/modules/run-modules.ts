import { join } from "node:path";
import type { AnalysisModule, CompoundFinding, ModuleAnalyzer, PreparedCompound, RDKit } from "@svc/science";
import { prepareCompound } from "@svc/science";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { StreamingFile, writeJsonAtomic } from "../outputs/atomic-write.ts";

/** Receives each compound with every module's finding, in portfolio order. */
export type CompoundSink = (
  compound: PreparedCompound,
  findings: ReadonlyMap<string, CompoundFinding>,
) => Promise<void>;

export interface RunModulesOptions {
  readonly rdkit: RDKit;
  readonly rows: AsyncIterable<PortfolioRow>;
  readonly modules: readonly AnalysisModule[];
  readonly rawDir: string;
  readonly generatedAt: string;
  readonly batchSize?: number;
  readonly sink: CompoundSink;
  readonly onBatch?: (done: number) => void;
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
  readonly raw: StreamingFile;
  first: boolean;
  failed: string | null;
}

/**
 * The module framework: streams the portfolio through RDKit preparation and every module,
 * writing `raw/<module_id>_raw.json` as it goes (common shape, domain notes), one compound at a
 * time so memory stays flat. A module that throws is marked failed; the others continue.
 */
export async function runModules(options: RunModulesOptions): Promise<ModuleRunResult> {
  const running: Running[] = [];
  for (const module of options.modules) {
    const raw = await StreamingFile.open(join(options.rawDir, `${module.id}_raw.json`));
    await raw.write(rawHead(module, options.generatedAt));
    running.push({ module, analyzer: module.createAnalyzer(), raw, first: true, failed: null });
  }
  const batchSize = options.batchSize ?? 100;
  let done = 0;
  try {
    for await (const row of options.rows) {
      const compound = prepareCompound(options.rdkit, row);
      const findings = new Map<string, CompoundFinding>();
      for (const entry of running) {
        if (entry.failed !== null) continue;
        try {
          const finding = entry.analyzer.analyze(compound);
          findings.set(entry.module.id, finding);
          await entry.raw.write(`${entry.first ? "\n" : ",\n"}${JSON.stringify(finding)}`);
          entry.first = false;
        } catch (error) {
          entry.failed = `candidate ${row.candidateId}: ${(error as Error).message}`;
        }
      }
      await options.sink(compound, findings);
      done++;
      if (done % batchSize === 0) options.onBatch?.(done);
    }
    options.onBatch?.(done);
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
    await entry.raw.write(
      `${entry.first ? "" : "\n"}],\n"summary":${JSON.stringify({ evidence_id: summaryEid, ...(summary as object) })}},\n"evidence_ids":${JSON.stringify([summaryEid])}}\n`,
    );
    await entry.raw.commit();
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

// The head of an executed module's raw file; the compounds array follows, then the summary.
function rawHead(module: AnalysisModule, generatedAt: string): string {
  const head = JSON.stringify({ ...rawFields(module, generatedAt), status: "executed", reason: null });
  return `${head.slice(0, -1)},"result":{"compounds":[`;
}

/** A raw record for a module that did not execute (not_available, missing_input, failed). */
export function writeRawRecord(rawDir: string, moduleId: string, record: object): Promise<void> {
  return writeJsonAtomic(join(rawDir, `${moduleId}_raw.json`), record);
}
