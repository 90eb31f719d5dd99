import type { JobSummary, PodSummary } from "./kube-gateway.ts";

/** Execution verification states of the module status endpoint (spec §3 leaves the values open). */
export type SmokeState = "NOT_RUN" | "PENDING" | "RUNNING" | "VERIFIED" | "FAILED";

/** The latest observed execution verification of a module. */
export interface SmokeVerification {
  state: SmokeState;
  reason: string;
  /** When the state was reached (condition time, start or creation time); null for NOT_RUN. */
  time: string | null;
  jobName: string | null;
}

/** The newest Job by creation time (name breaks ties so the answer is stable). */
export function pickNewestJob(jobs: readonly JobSummary[]): JobSummary | undefined {
  return [...jobs].sort((a, b) => {
    const byTime = (b.creationTimestamp ?? "").localeCompare(a.creationTimestamp ?? "");
    return byTime !== 0 ? byTime : b.name.localeCompare(a.name);
  })[0];
}

/**
 * Derives the verification state from the newest smoke Job: Complete=True is VERIFIED (the smoke
 * command exited 0), Failed=True is FAILED with Kubernetes' reason (BackoffLimitExceeded,
 * DeadlineExceeded), a ready pod is RUNNING, anything else that exists is PENDING.
 */
export function deriveSmokeVerification(
  jobs: readonly JobSummary[],
  podsOfNewest: readonly PodSummary[] = [],
): SmokeVerification {
  const job = pickNewestJob(jobs);
  if (!job)
    return { state: "NOT_RUN", reason: "no smoke Job found in the namespace", time: null, jobName: null };
  const isTrue = (type: string) =>
    job.conditions.find((condition) => condition.type === type && condition.status === "True");
  const complete = isTrue("Complete");
  if (complete)
    return {
      state: "VERIFIED",
      reason: "the smoke command exited 0 in the runner image",
      time: complete.lastTransitionTime ?? job.completionTime,
      jobName: job.name,
    };
  const failed = isTrue("Failed");
  if (failed) {
    const detail = [failed.reason, failed.message].filter(Boolean).join(": ");
    return {
      state: "FAILED",
      reason: detail || "the smoke Job failed",
      time: failed.lastTransitionTime ?? null,
      jobName: job.name,
    };
  }
  const waiting = podsOfNewest
    .flatMap((pod) => pod.containers)
    .find((container) => container.state.kind === "waiting" && container.state.reason);
  if (job.active > 0 && job.ready > 0)
    return {
      state: "RUNNING",
      reason: "the smoke container is running",
      time: job.startTime,
      jobName: job.name,
    };
  const since = job.startTime ?? job.creationTimestamp;
  // A waiting reason such as ImagePullBackOff is what an operator needs to see while PENDING.
  return {
    state: "PENDING",
    reason: waiting?.state.reason
      ? `container waiting: ${waiting.state.reason}`
      : "the smoke pod is not running yet",
    time: since,
    jobName: job.name,
  };
}
