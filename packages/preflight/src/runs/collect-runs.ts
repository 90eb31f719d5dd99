import type { RunSummary } from "@svc/core";
import { idLabelValue } from "@svc/core";
import type { JobSummary, KubeGateway } from "../kube/kube-gateway.ts";
import { listRunFolders, listRunStatusIds, readRunOutputFacts, runFolderOf } from "./run-output-facts.ts";
import { type ReportedRunState, type RunOutputFacts, reportRunState } from "./run-state.ts";

/** Label selector of the pipeline Jobs this service launches (kube/pipeline-job.ts labels). */
export const PIPELINE_JOB_SELECTOR =
  "app.kubernetes.io/component=pipeline,app.kubernetes.io/managed-by=svc-preflight";

/**
 * The run id of a pipeline Job: its annotation (the whole id), else its label (Jobs launched
 * before ids longer than a label value were allowed carry only the label, which was the id).
 */
export function runIdOfJob(job: JobSummary): string | undefined {
  return job.annotations["svc.run-id"] ?? job.labels["svc.run-id"];
}

/** The project id of a pipeline Job, the same way as {@link runIdOfJob}. */
function projectIdOfJob(job: JobSummary): string | null {
  return job.annotations["svc.project-id"] ?? job.labels["svc.project-id"] ?? null;
}

/** The pipeline Jobs of the given namespaces by run id (the newest Job when a run id repeats). */
export async function listPipelineJobs(
  kube: KubeGateway,
  namespaces: readonly string[],
  runId?: string,
): Promise<Map<string, JobSummary>> {
  // docs/contracts/run-id.md: select by the label-safe form, then keep only Jobs whose full id
  // matches, so a long id's hash form never stands for another run.
  const selector =
    runId === undefined
      ? PIPELINE_JOB_SELECTOR
      : `${PIPELINE_JOB_SELECTOR},svc.run-id=${idLabelValue(runId)}`;
  const byRun = new Map<string, JobSummary>();
  for (const namespace of namespaces) {
    for (const job of await kube.listJobs(namespace, selector)) {
      const id = runIdOfJob(job);
      if (id === undefined || (runId !== undefined && id !== runId)) continue;
      const known = byRun.get(id);
      if (!known || (job.creationTimestamp ?? "") > (known.creationTimestamp ?? "")) byRun.set(id, job);
    }
  }
  return byRun;
}

/** One run's summary line from its state (record or derived), its Job and its output facts. */
export function summarizeRun(
  runId: string,
  job: JobSummary | null,
  outputs: RunOutputFacts | null,
  state: ReportedRunState,
): RunSummary {
  const finished =
    job?.completionTime ?? job?.conditions.find((c) => c.type === "Failed")?.lastTransitionTime;
  return {
    runId,
    state: state.state,
    stateReason: state.reason,
    derived: state.derived,
    stage: state.stage,
    exitCode: state.exitCode,
    projectId: job === null ? null : projectIdOfJob(job),
    mode: job?.labels["svc.mode"] ?? null,
    namespace: job?.namespace ?? null,
    jobName: job?.name ?? null,
    createdAt: job?.creationTimestamp ?? outputs?.createdAt ?? state.startedAt,
    finishedAt: finished ?? null,
    hasOutputs: outputs !== null,
    sealStatus: state.sealStatus,
  };
}

/** Options of {@link collectRuns}. */
export interface CollectRunsOptions {
  outputRoot: string;
  kube: KubeGateway | null;
  namespaces: readonly string[];
  limit: number;
}

/**
 * Every run the service knows: folders and status records of the output root and pipeline Jobs it launched, newest
 * first (by Job creation, else folder creation), at most `limit`.
 */
export async function collectRuns(
  options: CollectRunsOptions,
): Promise<{ runs: RunSummary[]; truncated: boolean }> {
  const jobs = options.kube ? await listPipelineJobs(options.kube, options.namespaces) : new Map();
  const folders = await listRunFolders(options.outputRoot);
  // A run refused before its charge leaves no folder, only its record.
  const recorded = await listRunStatusIds(options.outputRoot);
  const ids = new Set<string>([...folders, ...jobs.keys(), ...recorded]);
  const folderSet = new Set(folders);
  const runs: RunSummary[] = [];
  for (const runId of ids) {
    const run = runFolderOf(options.outputRoot, runId);
    const record = await run.status();
    const outputs = folderSet.has(runId) ? await readRunOutputFacts(run, record).catch(() => null) : null;
    const job = jobs.get(runId) ?? null;
    const state = reportRunState(record, { job, pods: null, outputs, kubernetes: options.kube !== null });
    runs.push(summarizeRun(runId, job, outputs, state));
  }
  runs.sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || a.runId.localeCompare(b.runId));
  return { runs: runs.slice(0, options.limit), truncated: runs.length > options.limit };
}
