import { join } from "node:path";
import { RUN_MANIFEST_FILE } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
import type { Logger } from "../log.ts";
import { memoryFields } from "../memory.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import {
  buildCategoryScores,
  buildMeasurementProfile,
  buildMetrics,
  buildRiskChannelsMap,
  buildRiskSummary,
  buildSummary,
  REPORT_FILE,
} from "../outputs/build-results.ts";
import { printReportPdf, type ReportWriter } from "../outputs/report/index.ts";
import { writeExpectedHashes, writeReproPack } from "../outputs/repro-pack.ts";
import type { RunFacts } from "../outputs/run-facts.ts";
import type { AnalysedRun } from "./analyse-stage.ts";
import type { ChargedRun } from "./charge-stage.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { ValidationSummary } from "./validate-stage.ts";

export const RUNNER_VERSION = "0.1.0";

/** One JSON output: where it goes (relative to the run folder) and what it holds. */
export interface OutputFile {
  readonly path: string;
  readonly value: unknown;
}

/** Everything the write stage is built from, gathered by the earlier stages. */
export interface WriteInputs {
  readonly config: RunnerConfig;
  readonly staged: StagedInputs;
  readonly planned: PlannedRun;
  readonly charged: ChargedRun;
  readonly analysed: AnalysedRun;
  readonly validation: ValidationSummary;
  readonly startedAt: string;
  readonly generatedAt: string;
  readonly outputsCompletedAt: string;
  readonly rdkitVersion: string;
  /** Versions of the structure tools (vina, obabel, autogrid, PDBFixer/OpenMM) when a structure module ran. */
  readonly structureTools?: unknown;
}

/** The facts every result file is derived from (pure). */
export function buildRunFacts(inputs: WriteInputs): RunFacts {
  const { config, staged, planned, analysed } = inputs;
  return {
    run_id: config.runId,
    project_id: config.projectId,
    mode: config.mode,
    module_id: config.moduleId,
    generated_at: inputs.generatedAt,
    policy: planned.policy,
    plan: analysed.settled,
    counts: analysed.counts,
    inputs_sha256: staged.tree.sha256,
    compounds: analysed.result.compounds,
    summaries: analysed.result.summaries,
    primary_candidate_id: staged.sources.primary_candidate_id,
    primary_findings: analysed.primaryFindings,
    context: staged.sources.context,
    validation: inputs.validation,
  };
}

/** The runtime recorded in the manifest and the repro pack. */
export function runtimeOf(rdkitVersion: string): Record<string, string> {
  return {
    runner_version: RUNNER_VERSION,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    rdkit: rdkitVersion,
  };
}

/**
 * The JSON outputs of a finished analysis (pure: what to write, not writing it; changesets'
 * assemble-release-plan). The report and the hash list follow ({@link writeReportAndHashList});
 * none of them says whether the run is sealed: seal/ and the status record do (issue 29 item 2).
 */
export function planOutputFiles(inputs: WriteInputs, facts: RunFacts): OutputFile[] {
  const { config, staged, charged, analysed } = inputs;
  const files: OutputFile[] = [{ path: join("results", "summary.json"), value: buildSummary(facts) }];
  for (const entry of analysed.settled.modules) {
    if (entry.outcome !== "skipped" || entry.bucket === "disabled" || entry.bucket === "not_in_category")
      continue;
    files.push({
      path: join("raw", `${entry.module_id}_raw.json`),
      value: {
        module_id: entry.module_id,
        module_version: null,
        generated_at: inputs.generatedAt,
        risk_channel: entry.risk_channel,
        metadata: { bucket: entry.bucket },
        status: entry.reason,
        reason: entry.detail,
        result: null,
        evidence_ids: [],
      },
    });
  }
  const counts = analysed.counts;
  files.push(
    {
      path: join("plans", `${config.runId}_module_plan.json`),
      value: {
        schema: "svc.module-plan/v1",
        run_id: config.runId,
        generated_at: inputs.generatedAt,
        policy_version: analysed.settled.policy_version,
        category_resolution: analysed.settled.category,
        mode_note: "the run mode (standard/deep) never changes the category (spec §1 item 6)",
        counts,
        tier_compliance: { claim_strength: counts.claim_strength, missing_required: counts.missing_required },
        modules: analysed.settled.modules,
      },
    },
    {
      path: join("inputs", "input_hashes.json"),
      value: {
        format: "svc-tree/v1",
        root: "01_sources",
        inputs_sha256: staged.tree.sha256,
        files: staged.tree.entries,
      },
    },
    { path: join("results", "metrics.json"), value: buildMetrics(facts) },
    { path: join("results", "risk_channels_map.json"), value: buildRiskChannelsMap(facts) },
    { path: join("thresholds", "category_scores.json"), value: buildCategoryScores(facts) },
    {
      path: join("thresholds", "measurement_profile.json"),
      value: buildMeasurementProfile(facts, inputs.rdkitVersion),
    },
    { path: join("thresholds", "risk_summary.json"), value: buildRiskSummary(facts) },
    {
      path: RUN_MANIFEST_FILE,
      value: {
        schema: "svc.run-manifest/v1",
        run_id: config.runId,
        project_id: config.projectId,
        mode: config.mode,
        module_id: config.moduleId,
        category_id: inputs.planned.category.category_id,
        started_at: inputs.startedAt,
        outputs_completed_at: inputs.outputsCompletedAt,
        image: config.image,
        runtime: runtimeOf(inputs.rdkitVersion),
        config: publicConfig(config),
        inputs: { inputs_sha256: staged.tree.sha256, files: staged.tree.entries.length },
        entitlement: {
          principal: charged.consume.principal,
          check: {
            runs_remaining: charged.check.runs_remaining,
            already_consumed: charged.check.already_consumed,
          },
          consume: {
            consumed_at: charged.consume.consumed_at,
            ledger_entry_id: charged.consume.ledger_entry_id,
          },
          run_start: { state: charged.runStart.state, started_at: charged.runStart.started_at },
        },
        metering: charged.metering,
        outputs: {
          plan: `plans/${config.runId}_module_plan.json`,
          summary: "results/summary.json",
          report: REPORT_FILE,
          compounds: analysed.result.compounds,
        },
      },
    },
  );
  return files;
}

/** Stage 5, write: applies the planned files, then the repro pack (effects only, no decisions). */
export async function writeStage(
  runDir: string,
  inputs: WriteInputs,
  files: readonly OutputFile[],
): Promise<void> {
  for (const file of files) await writeJsonAtomic(join(runDir, file.path), file.value);
  const { config, staged } = inputs;
  await writeReproPack(runDir, {
    runId: config.runId,
    projectId: config.projectId,
    mode: config.mode,
    moduleId: config.moduleId,
    categoryPreset: config.categoryPreset,
    image: config.image,
    generatedAt: inputs.generatedAt,
    inputsSha256: staged.tree.sha256,
    runtime: runtimeOf(inputs.rdkitVersion),
    config: publicConfig(config),
    inputEntries: staged.tree.entries,
    structureTools: inputs.structureTools ?? null,
  });
}

/** What {@link writeReportAndHashList} needs besides the facts. */
export interface ReportAndHashListOptions {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly runDir: string;
  /** The report fed during analysis; composed here, once. */
  readonly report: ReportWriter;
  /** The run's generation instant, written into the PDF's dates so reruns stay byte-identical. */
  readonly generatedAt: string;
  /**
   * Removes the run's scratch folders once the report is composed: the sealed folder holds
   * nothing the seal does not cover (issue 23 item 2; `svc seal verify` and verify.sh refuse it).
   */
  readonly removeScratch: () => Promise<void>;
}

/**
 * The end of the write stage: the report (HTML, CSV, the PDF where Chromium is), the scratch
 * removed, then the per-file hash list, the last hashed file. After this the outputs are final:
 * the seal stage hashes them and writes only seal/.
 */
export async function writeReportAndHashList(
  options: ReportAndHashListOptions,
  facts: RunFacts,
): Promise<void> {
  const { config, log, runDir } = options;
  const html = await options.report.write(facts);
  log.info("report composed", { phase: "outputs", ...memoryFields() });
  const pdf = await printReportPdf(html, config.report, options.generatedAt);
  if (pdf.printed) log.info("report printed", { phase: "outputs", pdf: "results/report.pdf" });
  else log.info("report.pdf skipped", { phase: "outputs", reason: pdf.reason });
  await options.removeScratch();
  await writeExpectedHashes(runDir);
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
    docking_max_compounds: config.dockingMaxCompounds,
  };
}
