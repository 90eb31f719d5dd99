import { join } from "node:path";
import type { AnalysisModule, CompoundFinding, StagedTarget } from "@svc/science";
import { IMPLEMENTED_MODULES, loadRDKit } from "@svc/science";
import type { RunnerConfig } from "../config.ts";
import type { Logger } from "../log.ts";
import { type AnalysisItem, type ModuleRunResult, runModules } from "../modules/run-modules.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import { createReportChemistry, ReportWriter } from "../outputs/report/index.ts";
import type { Scratch } from "../outputs/scratch.ts";
import { countPlan, type ModulePlan, type PlanCounts, settlePlan } from "../plan/module-plan.ts";
import { CompoundPool } from "../pool/compound-pool.ts";
import { mapInOrder } from "../pool/ordered-map.ts";
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
  readonly log: Logger;
  readonly runDir: string;
  readonly scratch: Scratch;
  readonly planned: PlannedRun;
  readonly primaryCandidateId: string | null;
  /** Validated rows in portfolio order (from the validate stage's scratch cache). */
  readonly rows: AsyncIterable<ValidatedRow>;
  readonly generatedAt: string;
  /** The staged targets.csv, shown in the report's portfolio section; null when none was staged. */
  readonly targetsPath: string | null;
  /** The validated rows of targets.csv, for the modules that read them; null when none was staged. */
  readonly targets: readonly StagedTarget[] | null;
  readonly onCompound?: (done: number) => void;
  /** Structure modules that failed in the structure stage (module id -> error); they ran before this stage. */
  readonly structureFailures?: ReadonlyMap<string, string>;
  /** The staged structures, for the report's structure section and pose viewers (issue 25 item 10). */
  readonly structures?: readonly {
    readonly index: number;
    readonly path: string;
    readonly format: "pdb" | "mmcif";
  }[];
}

/**
 * Stage 4, analyse: every planned module over the prepared compounds, streaming `raw/`, the
 * combined outputs and the report rows so memory stays flat. The per-compound work (split
 * modules' `assess`, the report's depiction) runs in the worker pool, a few compounds in flight
 * per worker; results come back and are merged in portfolio order, so the outputs are the same
 * whatever the worker count (issue 10 item 4).
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
  // Every module's RDKit work runs in the worker pool; this thread loads RDKit only for the cards'
  // depictions when the report is composed (only the compounds ranked into a card are drawn).
  const report = await ReportWriter.open({
    runDir: options.runDir,
    options: config.report,
    reasons: moduleReasons(planned.plan),
    chemistry: async () => createReportChemistry(await loadRDKit()),
    targetsPath: options.targetsPath,
    scratchDir: options.scratch.path("report"),
    structures: options.structures,
  });
  let primaryFindings: Record<string, CompoundFinding> | null = null;
  const validatedOf = new WeakMap<AnalysisItem, Pick<ValidatedRow, "status" | "reason">>();
  let result: ModuleRunResult;
  let pool: CompoundPool | null = null;
  try {
    pool = await CompoundPool.start({
      size: config.workers,
      timeoutMs: config.moleculeTimeoutSec * 1000,
      onReplace: (reason) =>
        options.log.warn("RDKit worker replaced; the compound is unassessed", { phase: "modules", reason }),
    });
    result = await runModules({
      items: itemsOf(options.rows, pool, modules, validatedOf),
      modules,
      context: { targets: options.targets },
      rawDir: join(options.runDir, "raw"),
      generatedAt: options.generatedAt,
      onCompound: options.onCompound,
      sink: async (item, findings) => {
        const record = combinedRecord(item, findings, validatedOf.get(item));
        if (item.compound.row.candidateId === options.primaryCandidateId) primaryFindings = record.findings;
        await combined.push(record);
        await report.add(item.compound, findings);
      },
    });
  } catch (error) {
    await combined.abort();
    await report.dispose();
    throw error;
  } finally {
    await pool?.close();
  }
  // Structure modules (structure stage) are settled here too, so the plan is settled once.
  const settled = settlePlan(
    planned.plan,
    new Map([...result.failures, ...(options.structureFailures ?? [])]),
  );
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

/**
 * The validated rows with the workers' assessments, in portfolio order. A compound whose
 * assessment faulted or ran over the time budget becomes `unassessed` with the reason, as in
 * validation; the run goes on.
 */
function itemsOf(
  rows: AsyncIterable<ValidatedRow>,
  pool: CompoundPool,
  modules: readonly AnalysisModule[],
  validatedOf: WeakMap<AnalysisItem, Pick<ValidatedRow, "status" | "reason">>,
): AsyncGenerator<AnalysisItem> {
  const moduleIds = modules.map((module) => module.id);
  return mapInOrder(rows, pool.size * 4, async (row): Promise<AnalysisItem> => {
    let item: AnalysisItem = { compound: row.compound, analysis: null };
    let validated: Pick<ValidatedRow, "status" | "reason"> = row;
    if (row.compound.ok && moduleIds.length > 0) {
      const outcome = await pool.analyse(row.compound, moduleIds);
      if (outcome.kind === "analysed") item = { ...item, analysis: outcome.analysis };
      else {
        const { row: input } = row.compound;
        item = {
          compound: { row: input, ok: false, error: `unassessed: ${outcome.reason}`, unassessed: true },
          analysis: null,
        };
        validated = { status: "unassessed", reason: outcome.reason };
      }
    }
    validatedOf.set(item, validated);
    return item;
  });
}

function combinedRecord(
  { compound }: AnalysisItem,
  findings: ReadonlyMap<string, CompoundFinding>,
  validated: Pick<ValidatedRow, "status" | "reason"> | undefined,
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
