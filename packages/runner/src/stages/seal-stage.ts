import { join } from "node:path";
import { toInstant } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { EntitlementClient } from "../lifecycle/entitlement-client.ts";
import type { Logger } from "../log.ts";
import { memoryFields } from "../memory.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { buildSummary } from "../outputs/build-results.ts";
import { printReportPdf, type ReportWriter } from "../outputs/report/index.ts";
import { writeExpectedHashes } from "../outputs/repro-pack.ts";
import type { RunFacts, SealStatus } from "../outputs/run-facts.ts";
import { writePreseal, writeSealFolder } from "../outputs/seal-files.ts";
import { sealHashes } from "../outputs/seal-hashes.ts";
import { keepSealedState } from "../outputs/sealed-state.ts";
import { EXIT, type ExitCode, RunnerError } from "../runner-error.ts";

export interface SealStageOptions {
  readonly config: RunnerConfig;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "runComplete">;
  readonly now: () => Date;
  readonly runDir: string;
  readonly facts: RunFacts;
  readonly categoryId: string;
  /** The report fed during analysis; composed here, once per seal status. */
  readonly report: ReportWriter;
  /** The run's generation instant, written into the PDF's dates so reruns stay byte-identical. */
  readonly generatedAt: string;
}

export interface SealOutcome {
  readonly exitCode: ExitCode;
  readonly sealStatus: SealStatus;
}

/**
 * Stage 6, seal: writes the files that name the seal status (summary, report, expected hashes),
 * asks run_complete to seal the output tree, and writes seal/; when run_complete is unreachable,
 * keeps the sealed state and writes a pre-seal instead (exit 10, `svc-runner seal` completes it).
 */
export async function sealStage(options: SealStageOptions): Promise<SealOutcome> {
  const { config, log, runDir } = options;
  const finalize = async (seal: SealStatus) => {
    await writeJsonAtomic(join(runDir, "results", "summary.json"), buildSummary(options.facts, seal));
    const html = await options.report.write(options.facts, seal);
    log.info("report composed", { phase: "outputs", ...memoryFields() });
    const pdf = await printReportPdf(html, config.report, options.generatedAt);
    if (pdf.printed) log.info("report printed", { phase: "outputs", pdf: "results/report.pdf" });
    else log.info("report.pdf skipped", { phase: "outputs", reason: pdf.reason });
    await writeExpectedHashes(runDir);
    const hashes = await sealHashes(runDir);
    log.info("outputs hashed", { phase: "seal", ...memoryFields() });
    return hashes;
  };
  const hashes = await finalize("sealed");
  log.info("run_complete", { phase: "seal" });
  try {
    const complete = await options.entitlement.runComplete({ run_id: config.runId, ...hashes });
    await writeSealFolder(runDir, complete.seal);
    log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: runDir });
    return { exitCode: EXIT.success, sealStatus: "sealed" };
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
      category_id: options.categoryId,
      image: config.image,
      inputs_sha256: options.facts.inputs_sha256,
      ...pending,
      created_at: toInstant(options.now()),
      reason: "run_complete_unreachable",
    });
    return { exitCode: EXIT.preseal, sealStatus: "pending_online_verification" };
  }
}
