import type { RunDetail, RunState } from "@svc/core";
import { RUN_FILES } from "@svc/core/run-files";
import { exitOf } from "../cli-error.ts";
import { svcCommand } from "../config/svc-command.ts";
import type { PreflightClient } from "../http/preflight-client.ts";

/**
 * Every state of the record's vocabulary (core's runStateSchema) but the two a run passes through;
 * typed by the vocabulary, and a literal list so `svc --help` loads no @svc/core.
 */
const FINAL_STATES: ReadonlySet<string> = new Set<RunState>([
  "succeeded",
  "failed",
  "interrupted",
  "sealed",
  "pre-sealed",
  "seal-missing",
  "seal-mismatch",
]);

/** The record says sealed, the folder does not hold that seal (issue 38 item 5). */
const DISAGREEING = new Set(["seal-missing", "seal-mismatch"]);

/**
 * Exit code of a finished run: sealed or succeeded 0, failed, interrupted or a record the folder
 * contradicts (seal-missing, seal-mismatch) 1, pre-sealed 4 (PENDING: run_complete did not seal yet).
 */
export function exitCodeOfRun(run: RunDetail): number {
  if (run.state === "failed" || run.state === "interrupted" || DISAGREEING.has(run.state))
    return exitOf("RUN_FAILED");
  if (run.state === "pre-sealed") return exitOf("RUN_PRESEALED");
  if (run.state === "sealed" || run.state === "succeeded") return exitOf("DONE");
  return exitOf("RUN_PRESEALED");
}

/** Human lines for one run: state, Job, pods, seal and the summary's highlights. */
export function describeRun(run: RunDetail): string[] {
  const lines = [`run ${run.runId}: ${run.state} (${run.stateReason})`];
  // The runner's own record, or a state guessed from files for a run from before records.
  lines.push(
    run.derived
      ? "  status    derived from the output files and the Job (the run has no status record)"
      : `  status    recorded: stage ${run.stage ?? "?"}${run.exitCode === null ? "" : `, exit ${run.exitCode}`}`,
  );
  if (run.projectId) lines.push(`  project   ${run.projectId}${run.mode ? `, ${run.mode}` : ""}`);
  if (run.job)
    lines.push(
      `  job       ${run.job.namespace}/${run.job.name}, created ${run.job.creationTimestamp ?? "?"}`,
    );
  for (const pod of run.pods)
    lines.push(
      `  pod       ${pod.name} ${pod.phase} (${pod.containers.map((c) => `${c.name}: ${c.state.kind}${c.state.reason ? ` ${c.state.reason}` : ""}`).join(", ")})`,
    );
  lines.push(`  seal      ${run.seal.status}${run.seal.sealId ? ` ${run.seal.sealId}` : ""}`);
  const h = run.highlights;
  if (h) {
    lines.push(`  category  ${h.categoryId ?? "?"}; claim strength ${h.claimStrength ?? "?"}`);
    lines.push(
      `  compounds ${h.compoundsTotal ?? "?"} total, ${h.compoundsParsed ?? "?"} parsed; ${h.missingProof.length} required module(s) missing`,
    );
  }
  if (run.state === "sealed")
    lines.push(
      `  verify    ${svcCommand()} runs get ${run.runId} ${RUN_FILES.sealSvg} && ${svcCommand()} seal verify seal.svg --key <issuer key>`,
    );
  // no verify command: it would fail on a folder that does not hold the recorded seal
  if (DISAGREEING.has(run.state))
    lines.push(
      "  next      do not rely on this run's seal: its folder does not hold the seal its status record names",
    );
  if (run.state === "interrupted")
    lines.push(
      `  next      run it again with the same run id: ${svcCommand()} runs launch <project-id> --run-id ${run.runId}`,
    );
  if (run.state === "pre-sealed")
    lines.push(
      "  next      complete the seal with svc-runner seal --run-dir <run dir> once the entitlement service answers",
    );
  return lines;
}

/**
 * Polls `GET /api/runs/{runId}` until the run reaches a final state, printing each new state,
 * and returns the final detail.
 */
export async function waitForRun(
  client: PreflightClient,
  runId: string,
  namespace: string | undefined,
  intervalMs: number,
  onState: (line: string) => void,
): Promise<RunDetail> {
  let last = "";
  for (;;) {
    const run = await client.getRun(runId, namespace);
    const line = `${run.state}: ${run.stateReason}`;
    if (line !== last) onState(`run ${runId} ${line}`);
    last = line;
    if (FINAL_STATES.has(run.state)) return run;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
