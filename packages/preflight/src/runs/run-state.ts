import { RUN_FILES, type RunFolderSeal, type RunSealStatus, type RunState, type RunStatus } from "@svc/core";
import type { JobSummary, PodSummary } from "../kube/kube-gateway.ts";

/** The seal files a folder must hold to be sealed, as run paths (core's SEALED_FILES; issue 38 item 5). */
const SEALED_PATHS = [RUN_FILES.sealJson, RUN_FILES.sealSignature, RUN_FILES.sealSvg] as const;

/**
 * What the output folder of a run shows, read by `readRunOutputFacts` through core's
 * `readRunFolder`. The status record says where the seal stands (issue 41 item 1): `seal/` is read
 * only where the record cannot say it (no record: a folder from before records) or where the record
 * is held to the folder (it says sealed, issue 38 item 5); otherwise `seal` is null.
 */
export interface RunOutputFacts {
  /** What `seal/` holds; null when not read (the record said where the seal stands). */
  seal: RunFolderSeal | null;
  /** results/summary.json exists; null when not read (the run has a status record). */
  hasSummary: boolean | null;
  createdAt: string;
}

/** A run's state with the fact it was derived from. */
export interface DerivedRunState {
  state: RunState;
  reason: string;
}

/** A run's state for the API: from its status record, or derived (`derived: true`) without one. */
export interface ReportedRunState extends DerivedRunState {
  /** True when the run has no status record (a folder from before records) and the state is guessed. */
  derived: boolean;
  /** The stage the record names; null when derived. */
  stage: RunStatus["stage"] | null;
  exitCode: number | null;
  /** The status record's seal vocabulary (docs/contracts/run-status.md), the one preflight speaks. */
  sealStatus: RunSealStatus;
  /** When the record says the run started; null when derived. */
  startedAt: string | null;
}

/**
 * Where a run stands (pure, issue 29 item 3): its status record when it has one, the runner's own
 * word; else {@link deriveRunState}, labelled `derived`. A record still saying `running` is only
 * believed while the run's Job can still run it: with the Job gone, completed or failed, the
 * runner stopped without recording an end (killed, its node lost) and the run is `interrupted`.
 * Without Kubernetes (`kubernetes: false`) nothing can confirm it, and the reason says so.
 */
export function reportRunState(
  record: RunStatus | null,
  context: {
    job: JobSummary | null;
    pods: PodSummary[] | null;
    outputs: RunOutputFacts | null;
    kubernetes: boolean;
  },
): ReportedRunState {
  const { job, pods, outputs } = context;
  if (record === null) {
    const derived = deriveRunState(job, pods, outputs);
    return {
      ...derived,
      derived: true,
      stage: null,
      exitCode: null,
      startedAt: null,
      sealStatus: folderSealStatus(outputs?.seal ?? null),
    };
  }
  const recorded = {
    derived: false,
    stage: record.stage,
    exitCode: record.exit_code,
    startedAt: record.started_at,
    sealStatus: record.seal.status,
  };
  const at = `stage ${record.stage}, recorded ${record.updated_at}`;
  switch (record.state) {
    case "succeeded":
      if (record.seal.status === "sealed") return sealedByFolder(record, outputs, recorded, at);
      if (record.seal.status === "pending_online_verification")
        return {
          ...recorded,
          state: "pre-sealed",
          reason: `${record.reason ?? "run_complete did not seal"}: ${RUN_FILES.preseal} holds the hashes; complete it with svc-runner seal (${at})`,
        };
      return { ...recorded, state: "succeeded", reason: `finished without a seal (${at})` };
    case "failed":
      return {
        ...recorded,
        state: "failed",
        reason: `exit ${record.exit_code ?? "?"}: ${record.reason ?? "no reason recorded"} (${at})`,
      };
    case "interrupted":
      return {
        ...recorded,
        state: "interrupted",
        reason: `${record.reason ?? "interrupted"} (${at}); run again with the same run id to resume`,
      };
    case "running": {
      if (!context.kubernetes)
        return {
          ...recorded,
          state: "running",
          reason: `${at}; no Kubernetes configured to confirm its Job is alive`,
        };
      const ended = job === null ? null : (condition(job, "Complete") ?? condition(job, "Failed"));
      if (job !== null && ended === undefined)
        return { ...recorded, state: "running", reason: `${at}; Job ${job.name} is running it` };
      return {
        ...recorded,
        state: "interrupted",
        reason:
          job === null
            ? `the record says running at ${at}, but the run's Job is gone: the runner stopped without recording an end; run again with the same run id to resume`
            : `the record says running at ${at}, but Job ${job.name} has ended (${ended?.type}${ended?.reason ? `: ${ended.reason}` : ""}): the runner stopped without recording an end; run again with the same run id to resume`,
      };
    }
  }
}

/**
 * A record saying sealed, held to the folder (issue 38 item 5): the record is the runner's word,
 * written beside the folder, and a copy of a run without seal/, a record without a folder or a
 * folder holding only a pre-seal must not read "sealed" (nor be offered a verify command that
 * fails). Sealed only when the folder's seal files exist and seal/seal.json names the recorded
 * seal; otherwise the disagreement is the state.
 */
function sealedByFolder(
  record: RunStatus,
  outputs: RunOutputFacts | null,
  recorded: Omit<ReportedRunState, "state" | "reason">,
  at: string,
): ReportedRunState {
  const recordedId = record.seal.seal_id;
  const says = `the record says sealed as ${recordedId ?? "(no seal id)"} (${at})`;
  if (outputs === null)
    return {
      ...recorded,
      sealStatus: "none",
      state: "seal-missing",
      reason: `${says}, but the run has no folder`,
    };
  const seal = outputs.seal;
  if (seal === null || seal.missing.length > 0)
    return {
      ...recorded,
      sealStatus: folderSealStatus(seal),
      state: "seal-missing",
      reason: `${says}, but the folder lacks ${(seal?.missing ?? SEALED_PATHS).join(", ")}`,
    };
  if (recordedId === null || seal.sealId !== recordedId)
    return {
      ...recorded,
      sealStatus: "none",
      state: "seal-mismatch",
      reason: `${says}, but ${RUN_FILES.sealJson} ${seal.sealId === null ? "names no readable seal id" : `names ${seal.sealId}`}`,
    };
  return { ...recorded, state: "sealed", reason: `sealed as ${recordedId} (${at})` };
}

/** Where the seal stands by the folder alone (a run without a record), in the record's words. */
function folderSealStatus(seal: RunFolderSeal | null): RunSealStatus {
  if (seal === null) return "none";
  if (seal.missing.length === 0) return "sealed";
  return seal.presealed ? "pending_online_verification" : "none";
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
  const seal = outputs?.seal ?? null;
  if (seal !== null && seal.missing.length === 0)
    return { state: "sealed", reason: `${SEALED_PATHS.join(", ")} are present` };
  if (seal?.presealed)
    return {
      state: "pre-sealed",
      reason: `${RUN_FILES.preseal} only: run_complete was unreachable; complete it with svc-runner seal`,
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
  if (outputs?.hasSummary) return { state: "succeeded", reason: `${RUN_FILES.summary} is present; no seal` };
  return {
    state: "pending",
    reason: "outputs are incomplete and no Job launched by this service was found for the run",
  };
}
