import { join } from "node:path";
import type { CompoundFinding, PreparedCompound } from "@svc/science";
import { IMPLEMENTED_MODULES, loadRDKit, type RDKit } from "@svc/science";
import type { RunnerConfig } from "../config.ts";
import { type ModuleRunResult, runModules } from "../modules/run-modules.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import { createDepicter, ReportWriter } from "../outputs/report/index.ts";
import type { Scratch } from "../outputs/scratch.ts";
import { countPlan, type ModulePlan, type PlanCounts, settlePlan } from "../plan/module-plan.ts";
import { withRDKit } from "../pool/portable-compound.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { ValidatedRow } from "./validate-stage.ts";

export const COMBINED_FILE = join("results", "combined_unified_computational_outputs.json");

/** What the analysis produced besides the streamed files. */
export interface AnalysedRun {
  readonly result: ModuleRunResult;
  /** The plan with each planned module's outcome (executed or failed). */
  readonly settled: ModulePlan;
  readonly counts: PlanCounts;
  readonly primaryFindings: Readonly<Record<string, CompoundFinding>> | null;
  /** The report, fed every compound; composed once the seal status is known (seal stage). */
  readonly report: ReportWriter;
}

export interface AnalyseStageOptions {
  readonly config: RunnerConfig;
  readonly runDir: string;
  readonly scratch: Scratch;
  readonly planned: PlannedRun;
  readonly primaryCandidateId: string | null;
  /** Validated rows in portfolio order (from the validate stage's scratch cache). */
  readonly rows: AsyncIterable<ValidatedRow>;
  readonly generatedAt: string;
  /** The staged targets.csv, shown in the report's portfolio section; null when none was staged. */
  readonly targetsPath: string | null;
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
  const rdkit = await loadRDKit();
  const report = await ReportWriter.open({
    runDir: options.runDir,
    options: config.report,
    reasons: moduleReasons(planned.plan),
    depict: createDepicter(rdkit),
    targetsPath: options.targetsPath,
    scratchDir: options.scratch.path("report"),
  });
  let primaryFindings: Record<string, CompoundFinding> | null = null;
  const validatedOf = new WeakMap<PreparedCompound, ValidatedRow>();
  let result: ModuleRunResult;
  try {
    result = await runModules({
      compounds: compoundsOf(options.rows, validatedOf, rdkit),
      modules,
      rawDir: join(options.runDir, "raw"),
      generatedAt: options.generatedAt,
      onCompound: options.onCompound,
      sink: async (compound, findings) => {
        const record = combinedRecord(compound, findings, validatedOf.get(compound));
        if (compound.row.candidateId === options.primaryCandidateId) primaryFindings = record.findings;
        await combined.push(record);
        await report.add(compound, findings);
      },
    });
  } catch (error) {
    await combined.abort();
    await report.dispose();
    throw error;
  }
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
  return { result, settled, counts, primaryFindings, report };
}

async function* compoundsOf(
  rows: AsyncIterable<ValidatedRow>,
  validatedOf: WeakMap<PreparedCompound, ValidatedRow>,
  rdkit: RDKit,
): AsyncGenerator<PreparedCompound> {
  // Analyzers that re-read structures (alerts) use this thread's RDKit instance; preparation
  // ran in the worker pool, whose instances stay in their threads.
  for await (const row of rows) {
    const compound = withRDKit(row.compound, rdkit);
    validatedOf.set(compound, row);
    yield compound;
  }
}

function combinedRecord(
  compound: PreparedCompound,
  findings: ReadonlyMap<string, CompoundFinding>,
  validated: ValidatedRow | undefined,
) {
  return {
    candidate_id: compound.row.candidateId,
    name: compound.row.name,
    line: compound.row.line,
    input_smiles: compound.row.smiles,
    parsed: compound.ok,
    // ok | invalid | unassessed (too large, RDKit fault or time budget), as in inputs/validation.json.
    assessment: validated?.status ?? null,
    assessment_reason: validated?.reason ?? null,
    metadata: compound.row.metadata,
    findings: Object.fromEntries(findings),
  };
}

/** Why each module of the plan has no finding, for the report's "not available" notes. */
function moduleReasons(plan: ModulePlan): Map<string, string> {
  return new Map(
    plan.modules.map((entry) => [
      entry.module_id,
      entry.outcome === "planned"
        ? "not run for this compound"
        : (entry.detail ?? entry.reason ?? entry.outcome),
    ]),
  );
}
