import { join } from "node:path";
import { type PresealReason, toInstant } from "@svc/core";
import type { RunnerConfig } from "../config.ts";
import type { EntitlementClient } from "../lifecycle/entitlement-client.ts";
import type { Logger } from "../log.ts";
import { memoryFields } from "../memory.ts";
import { writeJsonAtomic } from "../outputs/atomic-write.ts";
import { buildSummary, PRESEAL_CAUSE } from "../outputs/build-results.ts";
import { readProvenanceFacts } from "../outputs/provenance-facts.ts";
import { printReportPdf, type ReportWriter } from "../outputs/report/index.ts";
import { writeExpectedHashes } from "../outputs/repro-pack.ts";
import type { RunFacts, SealState, SealStatus } from "../outputs/run-facts.ts";
import { writePreseal, writeSealFolder } from "../outputs/seal-files.ts";
import { sealHashesWithFiles } from "../outputs/seal-hashes.ts";
import { keepSealedState } from "../outputs/sealed-state.ts";
import { EXIT, type ExitCode, RunnerError, type RunnerErrorCode } from "../runner-error.ts";

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
  /**
   * Removes the run's scratch folders once the report is composed: the sealed folder holds
   * nothing the seal does not cover (issue 23 item 2; `svc seal verify` and verify.sh refuse it).
   */
  readonly removeScratch: () => Promise<void>;
}

export interface SealOutcome {
  readonly exitCode: ExitCode;
  readonly sealStatus: SealStatus;
}

/**
 * The run_complete failures that leave a pre-seal rather than a failed run: the run is charged
 * and its outputs are complete, and only the call failed, for a reason a later call can overcome
 * (the service came back; the job got a fresh token or its principal was allowed again). Any
 * other refusal is a verdict on the run itself and stays an error.
 */
const PRESEAL_ON: Readonly<Partial<Record<RunnerErrorCode, PresealReason>>> = {
  ENTITLEMENT_UNREACHABLE: "run_complete_unreachable",
  ENTITLEMENT_UNAUTHORIZED: "run_complete_unauthorized",
  ENTITLEMENT_FORBIDDEN: "run_complete_unauthorized",
};

/**
 * Stage 6, seal: writes the files that name the seal status (summary, report, expected hashes),
 * asks run_complete to seal the output tree, and writes seal/; when run_complete is unreachable
 * or refuses the job's credentials, keeps the sealed state and writes a pre-seal instead
 * (exit 10, `svc-runner seal` completes it).
 */
export async function sealStage(options: SealStageOptions): Promise<SealOutcome> {
  const { config, log, runDir } = options;
  const finalize = async (seal: SealState) => {
    await writeJsonAtomic(join(runDir, "results", "summary.json"), buildSummary(options.facts, seal));
    const html = await options.report.write(options.facts, seal);
    log.info("report composed", { phase: "outputs", ...memoryFields() });
    const pdf = await printReportPdf(html, config.report, options.generatedAt);
    if (pdf.printed) log.info("report printed", { phase: "outputs", pdf: "results/report.pdf" });
    else log.info("report.pdf skipped", { phase: "outputs", reason: pdf.reason });
    await options.removeScratch();
    await writeExpectedHashes(runDir);
    const { files, ...hashes } = await sealHashesWithFiles(runDir);
    log.info("outputs hashed", { phase: "seal", ...memoryFields() });
    return { hashes, files };
  };
  const { hashes, files } = await finalize({ status: "sealed" });
  // issue 30 item 6: what the issuer needs to sign the run's provenance, from the sealed outputs
  const provenance = await readProvenanceFacts(runDir, config.runId, files);
  if (provenance === null)
    log.warn("provenance facts unreadable: sealing without provenance", { phase: "seal" });
  log.info("run_complete", { phase: "seal" });
  try {
    const complete = await options.entitlement.runComplete({
      run_id: config.runId,
      ...hashes,
      ...(provenance === null ? {} : { provenance }),
    });
    await writeSealFolder(runDir, complete.seal, complete.log, complete.provenance);
    log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: runDir });
    return { exitCode: EXIT.success, sealStatus: "sealed" };
  } catch (error) {
    const reason = error instanceof RunnerError ? PRESEAL_ON[error.code] : undefined;
    if (reason === undefined) throw error;
    log.warn(`${PRESEAL_CAUSE[reason]}: writing a pre-seal; complete it with svc-runner seal --run-dir`, {
      phase: "seal",
      cause: (error as RunnerError).message,
      run_dir: runDir,
    });
    await keepSealedState(runDir, hashes);
    const { hashes: pending } = await finalize({ status: "pending_online_verification", reason });
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
      reason,
    });
    return { exitCode: EXIT.preseal, sealStatus: "pending_online_verification" };
  }
}
