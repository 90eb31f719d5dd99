import { join } from "node:path";
import { digestTree, sha256File } from "@svc/core";
import type { RunnerConfig } from "./config.ts";
import { readPortfolioRows } from "./inputs/portfolio.ts";
import { type StagedInputs, stageInputs } from "./inputs/stage-inputs.ts";
import type { EntitlementClient, RunParams } from "./lifecycle/entitlement-client.ts";
import { type MeteringRecord, reportUsage } from "./lifecycle/metering.ts";
import type { Logger } from "./log.ts";
import type { CompoundFinding, InputKind } from "./modules/analysis-module.ts";
import { loadRDKit } from "./modules/rdkit.ts";
import { IMPLEMENTED_MODULES } from "./modules/registry.ts";
import { runModules, writeRawRecord } from "./modules/run-modules.ts";
import { StreamingFile, writeJsonAtomic } from "./outputs/atomic-write.ts";
import {
  buildCategoryScores,
  buildMeasurementProfile,
  buildMetrics,
  buildRiskChannelsMap,
  buildRiskSummary,
  buildSummary,
  REPORT_FILE,
} from "./outputs/build-results.ts";
import { createDepicter, printReportPdf, ReportWriter } from "./outputs/report/index.ts";
import { writeExpectedHashes, writeReproPack } from "./outputs/repro-pack.ts";
import { prepareRunDir } from "./outputs/run-dir.ts";
import type { RunFacts, SealStatus } from "./outputs/run-facts.ts";
import { toInstant, writePreseal, writeSealFolder } from "./outputs/seal-files.ts";
import { keepSealedState } from "./outputs/sealed-state.ts";
import { buildModulePlan, countPlan, type ModulePlan, settlePlan } from "./plan/module-plan.ts";
import { loadPolicy } from "./plan/policy.ts";
import { resolveCategory } from "./plan/resolve-category.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";

export const RUNNER_VERSION = "0.1.0";

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
 * One audit run in the spec §3 order: validate inputs, plan, then check → consume → run_start →
 * modules → outputs → run_complete → seal/. Nothing reaches the entitlement service before the
 * inputs, the category and the output folder are known to be good.
 */
export async function runAudit(deps: AuditDeps): Promise<AuditOutcome> {
  const { config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const startedAt = toInstant(now());
  log.info("validating inputs", { phase: "inputs", project_id: config.projectId });
  const staged = await stageInputs(config.inputRoot, config.projectId);
  const policy = loadPolicy();
  const category = resolveCategory(policy, routingEvidence(staged), config.categoryPreset);
  if (category === null) {
    throw new RunnerError(
      "CATEGORY_UNKNOWN",
      `--category-preset "${config.categoryPreset}" is not a category of ${policy.policy_version}`,
    );
  }
  const plan = buildModulePlan(policy, category, IMPLEMENTED_MODULES, stagedKinds(staged));
  const runDir = await prepareRunDir(config.outputRoot, config.runId);
  const rdkit = await loadRDKit();
  log.info("inputs valid", {
    phase: "inputs",
    compounds: staged.portfolio.rowCount,
    inputs_sha256: staged.tree.sha256,
    category_id: category.category_id,
  });

  const params: RunParams = {
    run_id: config.runId,
    project_id: config.projectId,
    mode: config.mode,
    module_id: config.moduleId,
  };
  log.info("entitlement check", { phase: "entitlement", url: config.entitlementUrl });
  const check = await deps.entitlement.check(params);
  const consume = await deps.entitlement.consume(params);
  log.info("run consumed", { phase: "entitlement", runs_remaining: consume.runs_remaining });
  const metering = await reportUsage({
    agentUrl: config.meteringUrl,
    metric: config.metricName,
    startTime: startedAt,
    endTime: toInstant(now()),
  });
  if (metering.configured && !metering.reported)
    log.warn("metering report refused", { status: metering.status, error: metering.error });
  const runStart = await deps.entitlement.runStart({
    ...params,
    category_id: category.category_id,
    inputs_sha256: staged.tree.sha256,
    image: config.image,
  });

  // Analysis: streamed, one compound at a time.
  const generatedAt = startedAt;
  // Report scratch lives inside the run folder and is gone before the outputs are hashed.
  let reportScratch: ReportWriter | null = null;
  try {
    const planned = plan.modules
      .filter((entry) => entry.outcome === "planned")
      .map((entry) => entry.module_id);
    const modules = IMPLEMENTED_MODULES.filter((module) => planned.includes(module.id));
    const combined = await StreamingFile.open(
      join(runDir, "results", "combined_unified_computational_outputs.json"),
    );
    const report = await ReportWriter.open({
      runDir,
      options: config.report,
      reasons: moduleReasons(plan),
      depict: createDepicter(rdkit),
      targetsPath:
        staged.sources.targets_csv === null ? null : join(staged.sourcesDir, staged.sources.targets_csv),
    });
    reportScratch = report;
    await combined.write(
      `${JSON.stringify({
        schema: "svc.combined-outputs/v1",
        run_id: config.runId,
        project_id: config.projectId,
        mode: config.mode,
        category_id: category.category_id,
        generated_at: generatedAt,
      }).slice(0, -1)},"compounds":[`,
    );
    let primaryFindings: Record<string, CompoundFinding> | null = null;
    let first = true;
    const total = staged.portfolio.rowCount;
    const result = await runModules({
      rdkit,
      rows: readPortfolioRows(staged.portfolioPath, staged.portfolio),
      modules,
      rawDir: join(runDir, "raw"),
      generatedAt,
      onBatch: (done) =>
        log.info("analysing", { phase: "modules", modules: modules.map((m) => m.id).join(","), done, total }),
      sink: async (compound, findings) => {
        const record = {
          candidate_id: compound.row.candidateId,
          name: compound.row.name,
          line: compound.row.line,
          input_smiles: compound.row.smiles,
          parsed: compound.ok,
          metadata: compound.row.metadata,
          findings: Object.fromEntries(findings),
        };
        if (compound.row.candidateId === staged.sources.primary_candidate_id)
          primaryFindings = record.findings;
        await combined.write(`${first ? "\n" : ",\n"}${JSON.stringify(record)}`);
        first = false;
        await report.add(compound, findings);
      },
    });
    for (const entry of plan.modules) {
      if (entry.outcome !== "skipped" || entry.bucket === "disabled" || entry.bucket === "not_in_category")
        continue;
      await writeRawRecord(join(runDir, "raw"), entry.module_id, {
        module_id: entry.module_id,
        module_version: null,
        generated_at: generatedAt,
        risk_channel: entry.risk_channel,
        metadata: { bucket: entry.bucket },
        status: entry.reason,
        reason: entry.detail,
        result: null,
        evidence_ids: [],
      });
    }
    const settled = settlePlan(plan, result.failures);
    const counts = countPlan(settled);
    const facts: RunFacts = {
      run_id: config.runId,
      project_id: config.projectId,
      mode: config.mode,
      module_id: config.moduleId,
      generated_at: generatedAt,
      policy,
      plan: settled,
      counts,
      inputs_sha256: staged.tree.sha256,
      compounds: result.compounds,
      summaries: result.summaries,
      primary_candidate_id: staged.sources.primary_candidate_id,
      primary_findings: primaryFindings,
      context: staged.sources.context,
    };
    await combined.write(
      `${first ? "" : "\n"}],"module_outcomes":${JSON.stringify(
        settled.modules.map(({ module_id, bucket, outcome, reason, detail }) => ({
          module_id,
          bucket,
          outcome,
          reason,
          detail,
        })),
      )},"module_summaries":${JSON.stringify(Object.fromEntries(result.summaries))},"claim_strength":${JSON.stringify(counts.claim_strength)},"missing_proof":${JSON.stringify(counts.missing_required)}}\n`,
    );
    await combined.commit();
    log.info("writing outputs", {
      phase: "outputs",
      claim_strength: counts.claim_strength,
      coverage: counts.coverage_ratio,
    });
    await writeJsonAtomic(join(runDir, "plans", `${config.runId}_module_plan.json`), {
      schema: "svc.module-plan/v1",
      run_id: config.runId,
      generated_at: generatedAt,
      policy_version: settled.policy_version,
      category_resolution: settled.category,
      mode_note: "the run mode (standard/deep) never changes the category (spec §1 item 6)",
      counts,
      tier_compliance: { claim_strength: counts.claim_strength, missing_required: counts.missing_required },
      modules: settled.modules,
    });
    await writeJsonAtomic(join(runDir, "inputs", "input_hashes.json"), {
      format: "svc-tree/v1",
      root: "01_sources",
      inputs_sha256: staged.tree.sha256,
      files: staged.tree.entries,
    });
    await writeJsonAtomic(join(runDir, "results", "metrics.json"), buildMetrics(facts));
    await writeJsonAtomic(join(runDir, "results", "risk_channels_map.json"), buildRiskChannelsMap(facts));
    await writeJsonAtomic(join(runDir, "thresholds", "category_scores.json"), buildCategoryScores(facts));
    await writeJsonAtomic(
      join(runDir, "thresholds", "measurement_profile.json"),
      buildMeasurementProfile(facts, rdkit.version()),
    );
    await writeJsonAtomic(join(runDir, "thresholds", "risk_summary.json"), buildRiskSummary(facts));
    const runtime = {
      runner_version: RUNNER_VERSION,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      rdkit: rdkit.version(),
    };
    await writeReproPack(runDir, {
      runId: config.runId,
      projectId: config.projectId,
      mode: config.mode,
      moduleId: config.moduleId,
      categoryPreset: config.categoryPreset,
      image: config.image,
      generatedAt,
      inputsSha256: staged.tree.sha256,
      runtime,
      config: publicConfig(config),
      inputEntries: staged.tree.entries,
    });
    await writeJsonAtomic(join(runDir, "run_manifest.json"), {
      schema: "svc.run-manifest/v1",
      run_id: config.runId,
      project_id: config.projectId,
      mode: config.mode,
      module_id: config.moduleId,
      category_id: category.category_id,
      started_at: startedAt,
      outputs_completed_at: toInstant(now()),
      image: config.image,
      runtime,
      config: publicConfig(config),
      inputs: { inputs_sha256: staged.tree.sha256, files: staged.tree.entries.length },
      entitlement: {
        principal: consume.principal,
        check: { runs_remaining: check.runs_remaining, already_consumed: check.already_consumed },
        consume: { consumed_at: consume.consumed_at, ledger_entry_id: consume.ledger_entry_id },
        run_start: { state: runStart.state, started_at: runStart.started_at },
      },
      metering: metering satisfies MeteringRecord,
      outputs: {
        plan: `plans/${config.runId}_module_plan.json`,
        summary: "results/summary.json",
        report: REPORT_FILE,
        compounds: result.compounds,
      },
    });
    const finalize = async (seal: SealStatus) => {
      await writeJsonAtomic(join(runDir, "results", "summary.json"), buildSummary(facts, seal));
      const html = await report.write(facts, seal);
      const pdf = await printReportPdf(html, config.report, generatedAt);
      if (pdf.printed) log.info("report printed", { phase: "outputs", pdf: "results/report.pdf" });
      else log.info("report.pdf skipped", { phase: "outputs", reason: pdf.reason });
      await writeExpectedHashes(runDir);
      return sealHashes(runDir);
    };
    const hashes = await finalize("sealed");
    log.info("run_complete", { phase: "seal" });
    try {
      const complete = await deps.entitlement.runComplete({ run_id: config.runId, ...hashes });
      await writeSealFolder(runDir, complete.seal);
      log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: runDir });
      return { exitCode: EXIT.success, runDir, sealStatus: "sealed" };
    } catch (error) {
      if (!(error instanceof RunnerError) || error.code !== "ENTITLEMENT_UNREACHABLE") throw error;
      log.warn("run_complete unreachable: writing a pre-seal", { phase: "seal", cause: error.message });
      await keepSealedState(runDir, hashes);
      const pending = await finalize("pending_online_verification");
      await writePreseal(runDir, {
        seal_version: "svc.preseal/v1",
        run_id: config.runId,
        project_id: config.projectId,
        mode: config.mode,
        module_id: config.moduleId,
        category_id: category.category_id,
        image: config.image,
        inputs_sha256: staged.tree.sha256,
        ...pending,
        created_at: toInstant(now()),
        reason: "run_complete_unreachable",
      });
      return { exitCode: EXIT.preseal, runDir, sealStatus: "pending_online_verification" };
    }
  } finally {
    await reportScratch?.dispose();
  }
}

/** The two hashes run_complete seals: the output tree (seal/ excluded) and the manifest. */
export async function sealHashes(
  runDir: string,
): Promise<{ outputs_sha256: string; run_manifest_sha256: string }> {
  const tree = await digestTree(runDir, { exclude: (path) => path === "seal" });
  const manifest = await sha256File(join(runDir, "run_manifest.json"));
  return { outputs_sha256: tree.sha256, run_manifest_sha256: manifest.sha256 };
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

function routingEvidence(staged: StagedInputs) {
  return {
    structureFiles: staged.structureFiles.length,
    trajectoryFiles: staged.trajectoryFiles.length,
    mdIntent: staged.sources.md_intent,
    physicsAuditRequested: staged.sources.physics_audit_requested,
    assayRows: staged.assayRowCount,
  };
}

function stagedKinds(staged: StagedInputs): Set<InputKind> {
  const kinds = new Set<InputKind>(["portfolio"]);
  if (staged.structureFiles.length > 0) kinds.add("structures");
  if (staged.assayRowCount > 0) kinds.add("assays");
  if (staged.targetsRowCount > 0) kinds.add("targets");
  if (staged.trajectoryFiles.length > 0) kinds.add("trajectories");
  return kinds;
}

/** Configuration safe to write into outputs: never tokens or token contents. */
export function publicConfig(config: RunnerConfig): Record<string, unknown> {
  return {
    entitlement_url: config.entitlementUrl,
    auth_mode: config.authMode,
    audience: config.audience,
    timeout_sec: config.timeoutSec,
    category_preset: config.categoryPreset,
    metering: config.meteringUrl === null ? null : { metric: config.metricName },
    cloud_region: config.cloudRegion,
    cloud_location: config.cloudLocation,
  };
}
