import { join } from "node:path";
import type { RunnerConfig } from "../config.ts";
import type { CompoundFinding } from "../modules/analysis-module.ts";
import type { PreparedCompound } from "../modules/prepare-compound.ts";
import { IMPLEMENTED_MODULES } from "../modules/registry.ts";
import { type ModuleRunResult, runModules } from "../modules/run-modules.ts";
import { StreamingFile } from "../outputs/atomic-write.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import { renderCompoundRow } from "../outputs/report-html.ts";
import type { Scratch } from "../outputs/scratch.ts";
import { countPlan, type ModulePlan, type PlanCounts, settlePlan } from "../plan/module-plan.ts";
import type { PlannedRun } from "./plan-stage.ts";

export const COMBINED_FILE = join("results", "combined_unified_computational_outputs.json");

/** What the analysis produced besides the streamed files. */
export interface AnalysedRun {
  readonly result: ModuleRunResult;
  /** The plan with each planned module's outcome (executed or failed). */
  readonly settled: ModulePlan;
  readonly counts: PlanCounts;
  readonly primaryFindings: Readonly<Record<string, CompoundFinding>> | null;
  /** The report's compound rows, in scratch until the report is composed. */
  readonly reportRowsPath: string;
}

export interface AnalyseStageOptions {
  readonly config: RunnerConfig;
  readonly runDir: string;
  readonly scratch: Scratch;
  readonly planned: PlannedRun;
  readonly primaryCandidateId: string | null;
  readonly compounds: AsyncIterable<PreparedCompound>;
  readonly generatedAt: string;
  readonly onCompound?: (done: number) => void;
}

/**
 * Stage 4, analyse: every planned module over the prepared compounds, in portfolio order,
 * streaming `raw/`, the combined outputs and the report rows so memory stays flat.
 */
export async function analyseStage(options: AnalyseStageOptions): Promise<AnalysedRun> {
  const { config, planned } = options;
  const planIds = new Set(
    planned.plan.modules.filter((entry) => entry.outcome === "planned").map((entry) => entry.module_id),
  );
  const modules = IMPLEMENTED_MODULES.filter((module) => planIds.has(module.id));
  const combined = await JsonArrayWriter.open(
    join(options.runDir, COMBINED_FILE),
    {
      schema: "svc.combined-outputs/v1",
      run_id: config.runId,
      project_id: config.projectId,
      mode: config.mode,
      category_id: planned.category.category_id,
      generated_at: options.generatedAt,
    },
    ["compounds"],
  );
  const rows = await StreamingFile.open(options.scratch.path("report-rows.html"));
  let primaryFindings: Record<string, CompoundFinding> | null = null;
  let result: ModuleRunResult;
  try {
    result = await runModules({
      compounds: options.compounds,
      modules,
      rawDir: join(options.runDir, "raw"),
      generatedAt: options.generatedAt,
      onCompound: options.onCompound,
      sink: async (compound, findings) => {
        const record = combinedRecord(compound, findings);
        if (compound.row.candidateId === options.primaryCandidateId) primaryFindings = record.findings;
        await combined.push(record);
        await rows.write(renderCompoundRow(compound, findings));
      },
    });
  } catch (error) {
    await combined.abort();
    await rows.abort();
    throw error;
  }
  await rows.commit();
  const settled = settlePlan(planned.plan, result.failures);
  const counts = countPlan(settled);
  await combined.close([
    {
      module_outcomes: settled.modules.map(({ module_id, bucket, outcome, reason, detail }) => ({
        module_id,
        bucket,
        outcome,
        reason,
        detail,
      })),
      module_summaries: Object.fromEntries(result.summaries),
      claim_strength: counts.claim_strength,
      missing_proof: counts.missing_required,
    },
  ]);
  return { result, settled, counts, primaryFindings, reportRowsPath: rows.path };
}

function combinedRecord(compound: PreparedCompound, findings: ReadonlyMap<string, CompoundFinding>) {
  return {
    candidate_id: compound.row.candidateId,
    name: compound.row.name,
    line: compound.row.line,
    input_smiles: compound.row.smiles,
    parsed: compound.ok,
    metadata: compound.row.metadata,
    findings: Object.fromEntries(findings),
  };
}
