import type { RunnerConfig } from "./config.ts";
import { readPortfolioRows } from "./inputs/portfolio.ts";
import { stageInputs } from "./inputs/stage-inputs.ts";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import type { PreparedCompound } from "./modules/prepare-compound.ts";
import { prepareCompound } from "./modules/prepare-compound.ts";
import { loadRDKit } from "./modules/rdkit.ts";
import { prepareRunDir } from "./outputs/run-dir.ts";
import type { SealStatus } from "./outputs/run-facts.ts";
import { openScratch } from "./outputs/scratch.ts";
import { toInstant } from "./outputs/seal-files.ts";
import type { ExitCode } from "./runner-error.ts";
import { analyseStage } from "./stages/analyse-stage.ts";
import { chargeStage } from "./stages/charge-stage.ts";
import { planStage } from "./stages/plan-stage.ts";
import { sealStage } from "./stages/seal-stage.ts";
import { buildRunFacts, planOutputFiles, type WriteInputs, writeStage } from "./stages/write-stage.ts";

export interface AuditDeps {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "check" | "consume" | "runStart" | "runComplete">;
  readonly now?: () => Date;
}

export interface AuditOutcome {
  readonly exitCode: ExitCode;
  readonly runDir: string;
  readonly sealStatus: SealStatus;
}

/**
 * One audit run in the spec §3 order, as named stages: validate → plan → charge → analyse →
 * write → seal. Nothing reaches the entitlement service before the inputs, the category and the
 * output folder are known to be good; scratch space lives in the run folder and is removed on
 * every exit path.
 */
export async function runAudit(deps: AuditDeps): Promise<AuditOutcome> {
  const { config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const startedAt = toInstant(now());
  log.info("validating inputs", { phase: "inputs", project_id: config.projectId });
  const staged = await stageInputs(config.inputRoot, config.projectId);
  const planned = planStage(staged, config.categoryPreset);
  const runDir = await prepareRunDir(config.outputRoot, config.runId);
  const rdkit = await loadRDKit();
  log.info("inputs valid", {
    phase: "inputs",
    compounds: staged.portfolio.rowCount,
    inputs_sha256: staged.tree.sha256,
    category_id: planned.category.category_id,
  });
  const charged = await chargeStage({ ...deps, now }, staged, planned, startedAt);
  const scratch = await openScratch(runDir);
  try {
    const generatedAt = startedAt;
    const total = staged.portfolio.rowCount;
    const analysed = await analyseStage({
      config,
      runDir,
      scratch,
      planned,
      primaryCandidateId: staged.sources.primary_candidate_id,
      compounds: prepareInProcess(rdkit, readPortfolioRows(staged.portfolioPath, staged.portfolio)),
      generatedAt,
      onCompound: (done) => {
        if (done % 100 === 0 || done === total) log.info("analysing", { phase: "modules", done, total });
      },
    });
    log.info("writing outputs", {
      phase: "outputs",
      claim_strength: analysed.counts.claim_strength,
      coverage: analysed.counts.coverage_ratio,
    });
    const inputs: WriteInputs = {
      config,
      staged,
      planned,
      charged,
      analysed,
      startedAt,
      generatedAt,
      outputsCompletedAt: toInstant(now()),
      rdkitVersion: rdkit.version(),
    };
    const facts = buildRunFacts(inputs);
    await writeStage(runDir, inputs, planOutputFiles(inputs, facts));
    const sealed = await sealStage({
      config,
      log,
      entitlement: deps.entitlement,
      now,
      runDir,
      facts,
      categoryId: planned.category.category_id,
      reportRowsPath: analysed.reportRowsPath,
    });
    return { ...sealed, runDir };
  } finally {
    await scratch.dispose();
  }
}

async function* prepareInProcess(
  rdkit: Awaited<ReturnType<typeof loadRDKit>>,
  rows: AsyncIterable<Parameters<typeof prepareCompound>[1]>,
): AsyncGenerator<PreparedCompound> {
  for await (const row of rows) yield prepareCompound(rdkit, row);
}
