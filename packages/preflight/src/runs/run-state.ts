import type { RunState } from "../contract/preflight-schemas.ts";
import type { JobSummary, PodSummary } from "../kube/kube-gateway.ts";

/** What the output folder of a run shows, read by `readRunOutputFacts`. */
export interface RunOutputFacts {
  /** seal/seal.json and seal/seal.sig exist. */
  sealed: boolean;
  /** seal/preseal.json exists (domain notes "Pre-seal"). */
  preSealed: boolean;
  /** results/summary.json exists. */
  hasSummary: boolean;
  createdAt: string;
}

/** A run's state with the fact it was derived from. */
export interface DerivedRunState {
  state: RunState;
  reason: string;
}

function condition(job: JobSummary, type: string) {
  return job.conditions.find((entry) => entry.type === type && entry.status === "True");
}

/**
 * Where a run stands (pure). A failed Job wins (its outputs are not to be trusted); then the seal
 * on disk (sealed, pre-sealed); then the Job's own progress; without a Job, what the outputs show.
 */
export function deriveRunState(
  job: JobSummary | null,
  pods: PodSummary[] | null,
  outputs: RunOutputFacts | null,
): DerivedRunState {
  if (job) {
    const failed = condition(job, "Failed");
    if (failed || (job.failed > 0 && job.active === 0 && job.succeeded === 0))
      return {
        state: "failed",
        reason: `Job ${job.name} failed${failed?.reason ? `: ${failed.reason}` : ""}${failed?.message ? ` (${failed.message})` : ""}`,
      };
  }
  if (outputs?.sealed) return { state: "sealed", reason: "seal/seal.json and seal/seal.sig are present" };
  if (outputs?.preSealed)
    return {
      state: "pre-sealed",
      reason: "seal/preseal.json only: run_complete was unreachable; complete it with svc-runner seal",
    };
  if (job) {
    if (condition(job, "Complete") || job.succeeded > 0)
      return { state: "succeeded", reason: `Job ${job.name} completed` };
    const runningPod = pods?.find((pod) => pod.phase === "Running");
    if (runningPod) return { state: "running", reason: `pod ${runningPod.name} is running` };
    if (pods === null && job.ready > 0)
      return { state: "running", reason: `Job ${job.name} has a ready pod` };
    const waiting = pods
      ?.flatMap((pod) => pod.containers)
      .find((container) => container.state.kind === "waiting" && container.state.reason);
    return {
      state: "pending",
      reason: waiting
        ? `container ${waiting.name} is waiting: ${waiting.state.reason}`
        : `Job ${job.name} has no running pod yet`,
    };
  }
  if (outputs?.hasSummary) return { state: "succeeded", reason: "results/summary.json is present; no seal" };
  return {
    state: "pending",
    reason: "outputs are incomplete and no Job launched by this service was found for the run",
  };
}
