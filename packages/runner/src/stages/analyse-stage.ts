import { join } from "node:path";
import { RUN_FILES } from "@svc/core";
import type { AnalysisModule, CompoundFinding } from "@svc/science/modules";
import { IMPLEMENTED_MODULES, loadRDKit } from "@svc/science/modules";
import { STRUCTURE_MODULES } from "@svc/science/structure-modules";
import type { AssayValue } from "../inputs/assays-csv.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import { untilInterrupted } from "../interruption.ts";
import { memoryFields } from "../memory.ts";
import { type AnalysisItem, type ModuleRunResult, runModules } from "../modules/run-modules.ts";
import { JsonArrayWriter } from "../outputs/json-array-writer.ts";
import { createReportChemistry, printReportPdf, ReportWriter } from "../outputs/report/index.ts";
import type { RunFacts } from "../outputs/run-facts.ts";
import {
  countPlan,
  type ModulePlan,
  type ModuleWork,
  type PlanCounts,
  settlePlan,
  type WorkDone,
} from "../plan/module-plan.ts";
import { CompoundPool } from "../pool/compound-pool.ts";
import { mapInOrder } from "../pool/ordered-map.ts";
import { createProgress } from "../progress.ts";
import { combinedRecord, combinedRecordJson } from "./combined-record.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { Stage, StageContext } from "./stage.ts";
import {
  PREPARED_CACHE,
  readValidatedRows,
  type ValidatedRow,
  type ValidationSummary,
} from "./validate-rows.ts";

export const COMBINED_FILE = RUN_FILES.combined;

/** What the analysis produced besides the streamed files and the report. */
export interface AnalysedRun {
  readonly result: ModuleRunResult;
  /** The plan with each planned module's outcome (executed or failed). */
  readonly settled: ModulePlan;
  readonly counts: PlanCounts;
  readonly primaryFindings: Readonly<Record<string, CompoundFinding>> | null;
  /** The facts every result file is derived from; the report is already written from them. */
  readonly facts: RunFacts;
}

/** What the analyse stage needs from earlier stages. */
export interface AnalyseInput {
  readonly staged: StagedInputs;
  readonly planned: PlannedRun;
  readonly validation: ValidationSummary;
  /** Structure modules that failed in the structure stage (module id -> error); they ran before this stage. */
  readonly structureFailures: ReadonlyMap<string, string>;
  /** What the per-compound structure modules (docking) did of their work, for the claim (issue 37 item 3). */
  readonly structureWork?: readonly ModuleWork[];
}

/**
 * Stage 5, analyse: every planned module over the prepared compounds, streaming `raw/`, the
 * combined outputs and the report rows so memory stays flat. The per-compound work (split
 * modules' `assess`, the report's depiction) runs in the worker pool, a few compounds in flight
 * per worker; results come back and are merged in portfolio order, so the outputs are the same
 * whatever the worker count (issue 10 item 4). This stage owns the report writer (issue 29 item
 * 2): it opens it, feeds it every compound and composes the report (HTML, CSV, the PDF where
 * Chromium is) once the analysis is settled; nothing with an open file leaves the stage.
 */
export const analyseStage: Stage<AnalyseInput, AnalysedRun> = {
  name: "analyse",
  async run(ctx, input) {
    const { config, log } = ctx;
    const { staged, planned } = input;
    const progress = createProgress({
      log,
      label: "analysing",
      phase: "modules",
      total: input.validation.rows,
    });
    // Every module's RDKit work runs in the worker pool; this thread loads RDKit only for the cards'
    // depictions when the report is composed (only the compounds ranked into a card are drawn).
    const report = await ReportWriter.open({
      runDir: ctx.runDir,
      options: config.report,
      reasons: moduleReasons(planned.plan),
      chemistry: async () => createReportChemistry(await loadRDKit()),
      targetsPath:
        staged.sources.targets_csv === null ? null : join(staged.sourcesDir, staged.sources.targets_csv),
      scratchDir: ctx.scratch.path("report"),
      structures: staged.structures.map(({ index, path, format }) => ({ index, path, format })),
      profile: staged.sources.profile,
      potency: potencyOf(staged),
      structureModules: STRUCTURE_MODULES.map((module) => module.id),
    });
    try {
      const analysed = await analyse(ctx, { ...input, report, onCompound: (done) => progress.tick(done) });
      progress.finish(analysed.result.compounds);
      // The analysis apart from the report's composition, for the per-stage CPU (issue 42 item 1).
      log.info("compounds analysed", { phase: "modules", ...memoryFields() });
      const facts = runFactsOf(ctx, { ...input, analysed });
      await composeReport(ctx, { report, facts });
      return { ...analysed, facts };
    } finally {
      await report.dispose();
    }
  },
  counts: (analysed) => ({
    compounds: analysed.result.compounds,
    modules_executed: analysed.counts.executed,
    modules_failed: analysed.counts.failed,
  }),
};

/** The analysis's input: the stage's, the report writer the stage opened, and a progress tick. */
interface AnalysisInput extends AnalyseInput {
  readonly report: ReportWriter;
  readonly onCompound: (done: number) => void;
}

/** The modules over every compound, into the combined outputs, raw/ and the report's rows. */
async function analyse(ctx: StageContext, input: AnalysisInput): Promise<Omit<AnalysedRun, "facts">> {
  const { config, log, runDir, startedAt: generatedAt } = ctx;
  const { planned, report, onCompound } = input;
  const primaryCandidateId = input.staged.sources.primary_candidate_id;
  const planIds = new Set(
    planned.plan.modules.filter((entry) => entry.outcome === "planned").map((entry) => entry.module_id),
  );
  const modules = IMPLEMENTED_MODULES.filter((module) => planIds.has(module.id));
  const combined = await JsonArrayWriter.open(
    join(runDir, COMBINED_FILE),
    {
      schema: "svc.combined-outputs/v1",
      run_id: config.runId,
      project_id: config.projectId,
      mode: config.mode,
      category_id: planned.category.category_id,
      generated_at: generatedAt,
    },
    ["compounds"],
  );
  let primaryFindings: Record<string, CompoundFinding> | null = null;
  const validatedOf = new WeakMap<AnalysisItem, Pick<ValidatedRow, "status" | "reason">>();
  const unassessed = { count: 0, reasons: {} as Record<string, number> };
  let result: ModuleRunResult;
  let pool: CompoundPool | null = null;
  try {
    pool = await CompoundPool.start({
      size: config.workers,
      timeoutMs: config.moleculeTimeoutSec * 1000,
      onReplace: (reason) =>
        log.warn("RDKit worker replaced; the compound is unassessed", { phase: "modules", reason }),
    });
    const rows = untilInterrupted(
      readValidatedRows(ctx.scratch.path(PREPARED_CACHE)),
      ctx.interruption,
      "analyse",
    );
    result = await runModules({
      items: itemsOf(rows, pool, modules, validatedOf, unassessed),
      modules,
      context: { targets: input.staged.targets },
      runDir,
      generatedAt,
      onCompound,
      sink: async (item, findings, findingsJson) => {
        const validated = validatedOf.get(item);
        if (item.compound.row.candidateId === primaryCandidateId)
          primaryFindings = combinedRecord(item, findings, validated).findings;
        await combined.pushJson(combinedRecordJson(item, findingsJson, validated));
        await report.add(item.compound, findings);
      },
    });
  } catch (error) {
    await combined.abort();
    throw error;
  } finally {
    await pool?.close();
  }
  // Structure modules (structure stage) are settled here too, so the plan is settled once.
  const settled = settlePlan(planned.plan, new Map([...result.failures, ...input.structureFailures]));
  const counts = countPlan(settled, workDone(input, modules, unassessed));
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
      claim_reasons: counts.claim_reasons,
      missing_proof: counts.missing_required,
    },
  ]);
  return { result, settled, counts, primaryFindings };
}

/**
 * What the run did of its work (issue 37 item 3): every per-compound module should assess every row
 * that parsed; rows the pool could not assess (time budget, fault, size) in validation or here were
 * not done for any of them. Docking's own counts come from the structure stage.
 */
function workDone(
  input: AnalyseInput,
  modules: readonly AnalysisModule[],
  unassessed: { readonly count: number; readonly reasons: Readonly<Record<string, number>> },
): WorkDone {
  const { validation } = input;
  const expected = validation.ok + validation.unassessed;
  const assessed = validation.ok - unassessed.count;
  const notDone: Record<string, number> = { ...unassessed.reasons };
  if (validation.unassessed > 0)
    notDone["unassessed in validation (size, fault or time budget)"] = validation.unassessed;
  return {
    modules: [
      ...modules.map((module) => ({ module_id: module.id, assessed, expected, not_done: notDone })),
      ...(input.structureWork ?? []),
    ],
    rows: validation.rows,
    unreadable: validation.invalid,
  };
}

/** The facts every result file is derived from (pure). */
function runFactsOf(
  ctx: StageContext,
  input: AnalyseInput & { readonly analysed: Omit<AnalysedRun, "facts"> },
): RunFacts {
  const { config } = ctx;
  const { staged, analysed } = input;
  return {
    run_id: config.runId,
    project_id: config.projectId,
    mode: config.mode,
    module_id: config.moduleId,
    generated_at: ctx.startedAt,
    policy: input.planned.policy,
    plan: analysed.settled,
    counts: analysed.counts,
    inputs_sha256: staged.tree.sha256,
    compounds: analysed.result.compounds,
    summaries: analysed.result.summaries,
    primary_candidate_id: staged.sources.primary_candidate_id,
    primary_findings: analysed.primaryFindings,
    context: staged.sources.context,
    profile: staged.sources.profile,
    validation: input.validation,
  };
}

/**
 * The report (HTML, CSV, the PDF where Chromium is), written once: hashed outputs that never say
 * whether the run is sealed (seal/ and the status record do, issue 29 item 2).
 */
async function composeReport(
  ctx: StageContext,
  { report, facts }: { readonly report: ReportWriter; readonly facts: RunFacts },
): Promise<void> {
  const { config, log } = ctx;
  const html = await report.write(facts);
  log.info("report composed", { phase: "outputs", ...memoryFields() });
  // The run's generation instant is written into the PDF's dates so reruns stay byte-identical.
  const pdf = await printReportPdf(html, config.report, ctx.startedAt);
  if (pdf.printed) log.info("report printed", { phase: "outputs", pdf: RUN_FILES.reportPdf });
  else log.info("report.pdf skipped", { phase: "outputs", reason: pdf.reason });
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
  unassessed: { count: number; reasons: Record<string, number> },
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
        unassessed.count++;
        const kind = `unassessed in analysis: ${outcome.reason.split(":")[0] ?? outcome.reason}`;
        unassessed.reasons[kind] = (unassessed.reasons[kind] ?? 0) + 1;
      }
    }
    validatedOf.set(item, validated);
    return item;
  });
}

/**
 * The customer's measured potency per compound (issue 37 item 4): its value in the table's first
 * assay (the primary assay, as the table orders them), else its best value in any other; the number
 * of assays measured for it.
 */
function potencyOf(staged: StagedInputs) {
  const potency = new Map<string, { p_activity: number; relation: string; rows: number }>();
  const assays = staged.assays;
  if (assays === null) return potency;
  const primary = assays.assayIds[0];
  for (const [candidate, values] of assays.values) {
    const value =
      primary !== undefined && primary in values ? values[primary] : mostPotent(Object.values(values));
    if (value === undefined) continue;
    // The relation is in pActivity terms (assays-csv.ts): "<" when the compound is less potent
    // than the bound (IC50 > X is pActivity < −log10 X), ">" when more potent.
    potency.set(candidate, { p_activity: value.p, relation: value.relation, rows: value.rows });
  }
  return potency;
}

/** The highest measured value, a bound only when no assay measured an exact one. */
function mostPotent(values: readonly AssayValue[]): AssayValue | undefined {
  const exact = values.filter((value) => value.relation === "=");
  const pool = exact.length > 0 ? exact : values;
  return pool.reduce<AssayValue | undefined>(
    (best, value) => (best === undefined || value.p > best.p ? value : best),
    undefined,
  );
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
