import { join } from "node:path";
import { RUN_FILES, runPath, SOURCES_DIR, toInstant } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { StagedInputs } from "../inputs/stage-inputs.ts";
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
import { writeExpectedHashes, writeReproPack } from "../outputs/repro-pack.ts";
import { removeScratchFolders } from "../outputs/scratch.ts";
import type { AnalysedRun } from "./analyse-stage.ts";
import type { ChargedRun } from "./charge-stage.ts";
import type { PlannedRun } from "./plan-stage.ts";
import type { Stage } from "./stage.ts";
import type { ValidationSummary } from "./validate-rows.ts";
import type { RowValidation } from "./validate-stage.ts";

export const RUNNER_VERSION = "0.1.0";

/** One JSON output: where it goes (relative to the run folder) and what it holds. */
export interface OutputFile {
  readonly path: string;
  readonly value: unknown;
}

/** Everything the JSON outputs are built from, gathered by the earlier stages. */
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
 * assemble-release-plan). None of them says whether the run is sealed: seal/ and the status
 * record do (issue 29 item 2).
 */
export function planOutputFiles(inputs: WriteInputs): OutputFile[] {
  const { config, staged, charged, analysed } = inputs;
  const { facts } = analysed;
  const files: OutputFile[] = [{ path: RUN_FILES.summary, value: buildSummary(facts) }];
  for (const entry of analysed.settled.modules) {
    if (entry.outcome !== "skipped" || entry.bucket === "disabled" || entry.bucket === "not_in_category")
      continue;
    files.push({
      path: runPath("moduleRaw", { module: entry.module_id }),
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
      path: runPath("modulePlan", { run_id: config.runId }),
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
      path: RUN_FILES.inputHashes,
      value: {
        format: "svc-tree/v1",
        root: SOURCES_DIR,
        inputs_sha256: staged.tree.sha256,
        files: staged.tree.entries,
      },
    },
    { path: RUN_FILES.metrics, value: buildMetrics(facts) },
    { path: RUN_FILES.riskChannelsMap, value: buildRiskChannelsMap(facts) },
    { path: RUN_FILES.categoryScores, value: buildCategoryScores(facts) },
    {
      path: RUN_FILES.measurementProfile,
      value: buildMeasurementProfile(facts, inputs.rdkitVersion),
    },
    { path: RUN_FILES.riskSummary, value: buildRiskSummary(facts) },
    {
      path: RUN_FILES.manifest,
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
          plan: runPath("modulePlan", { run_id: config.runId }),
          summary: RUN_FILES.summary,
          report: REPORT_FILE,
          compounds: analysed.result.compounds,
        },
      },
    },
  );
  return files;
}

/** What the write stage needs from earlier stages. */
export interface WriteInput {
  readonly staged: StagedInputs;
  readonly planned: PlannedRun;
  readonly charged: ChargedRun;
  readonly validation: RowValidation;
  /** Versions of the structure tools when a structure module ran (structure stage), else null. */
  readonly structureTools: unknown;
  readonly analysed: AnalysedRun;
}

/**
 * Stage 6, write: the JSON outputs (pure builders, then one apply step), the repro pack, the
 * scratch folders removed, then the per-file hash list, the last hashed file. The report is
 * already written (analyse stage). After this the outputs are final: the seal stage hashes them
 * and writes only seal/. A signal no longer stops the run here (StageSequence): writing takes seconds.
 */
export const writeStage: Stage<WriteInput, void> = {
  name: "write",
  async run(ctx, input) {
    const { config, log, runDir } = ctx;
    const { analysed } = input;
    log.info("writing outputs", {
      phase: "outputs",
      claim_strength: analysed.counts.claim_strength,
      coverage: analysed.counts.coverage_ratio,
      ...memoryFields(),
    });
    const inputs: WriteInputs = {
      config,
      staged: input.staged,
      planned: input.planned,
      charged: input.charged,
      analysed,
      validation: input.validation.summary,
      startedAt: ctx.startedAt,
      generatedAt: ctx.startedAt,
      outputsCompletedAt: toInstant(ctx.now()),
      rdkitVersion: input.validation.rdkitVersion,
      structureTools: input.structureTools,
    };
    for (const file of planOutputFiles(inputs)) await writeJsonAtomic(join(runDir, file.path), file.value);
    await writeReproPack(runDir, {
      runId: config.runId,
      projectId: config.projectId,
      mode: config.mode,
      moduleId: config.moduleId,
      categoryPreset: config.categoryPreset,
      image: config.image,
      generatedAt: inputs.generatedAt,
      inputsSha256: input.staged.tree.sha256,
      runtime: runtimeOf(inputs.rdkitVersion),
      config: publicConfig(config),
      inputEntries: input.staged.tree.entries,
      structureTools: inputs.structureTools ?? null,
    });
    // The sealed folder holds nothing the seal does not cover (issue 23 item 2; `svc seal verify`
    // and verify.sh refuse it); index 0 of a sharded run also removes the other pods' spent scratch.
    await removeScratchFolders(runDir);
    await writeExpectedHashes(runDir);
  },
};

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
