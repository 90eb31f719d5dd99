import type { RunDetail, RunFolder, RunStatus } from "@svc/core";
import { ID_RULE, isSafeId } from "@svc/core";
import type { FastifyInstance } from "fastify";
import { PreflightError } from "../errors.ts";
import type { JobSummary, KubeGateway, PodSummary } from "../kube/kube-gateway.ts";
import { readQuery } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";
import { collectRuns, listPipelineJobs, summarizeRun } from "../runs/collect-runs.ts";
import { readRunHighlights, readRunOutputFacts, readRunSeal, runFolderOf } from "../runs/run-output-facts.ts";
import { reportRunState } from "../runs/run-state.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

function readRunId(params: unknown): string {
  const runId = (params as { runId?: string }).runId ?? "";
  if (!isSafeId(runId)) throw new PreflightError("INVALID_INPUT", `runId ${ID_RULE}`);
  return runId;
}

function readPositiveInt(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > max)
    throw new PreflightError("INVALID_INPUT", `${name} must be an integer from 1 to ${max}`);
  return parsed;
}

function readBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new PreflightError("INVALID_INPUT", `${name} must be true or false`);
}

function newestPod(pods: PodSummary[]): PodSummary | undefined {
  return [...pods].sort((a, b) => (b.startTime ?? "").localeCompare(a.startTime ?? ""))[0];
}

/** Runs: list (outputs + launched Jobs), one run's detail, and its log (spec §4.2 extension, issue 14). */
export function registerRunRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;

  // `namespace` narrows the Jobs read to one allowed namespace; default every allowed one.
  function namespacesFor(requested: string | undefined): string[] {
    if (requested === undefined) return [...config.allowedNamespaces];
    context.checkNamespace(requested);
    return [requested];
  }

  async function outputFactsOf(run: RunFolder, record: RunStatus | null) {
    return readRunOutputFacts(run, record).catch(() => null);
  }

  async function findJob(kube: KubeGateway, runId: string, namespaces: string[]): Promise<JobSummary | null> {
    return (await listPipelineJobs(kube, namespaces, runId)).get(runId) ?? null;
  }

  app.get("/api/runs", async (request) => {
    const query = readQuery(request.query, ["namespace", "limit"]);
    const namespaces = namespacesFor(query.namespace);
    const limit = readPositiveInt("limit", query.limit, MAX_LIMIT) ?? DEFAULT_LIMIT;
    const { runs, truncated } = await collectRuns({
      outputRoot: config.outputRoot,
      kube: context.kube,
      namespaces,
      limit,
    });
    return { runs, namespaces: context.kube ? namespaces : [], kubernetes: context.kube !== null, truncated };
  });

  app.get("/api/runs/:runId", async (request): Promise<RunDetail> => {
    const runId = readRunId(request.params);
    const query = readQuery(request.query, ["namespace"]);
    const namespaces = namespacesFor(query.namespace);
    const kube = context.kube;
    const job = kube ? await findJob(kube, runId, namespaces) : null;
    const pods =
      kube && job ? await kube.listPods(job.namespace, `batch.kubernetes.io/job-name=${job.name}`) : [];
    const run = runFolderOf(config.outputRoot, runId);
    const record = await run.status();
    const outputs = await outputFactsOf(run, record);
    if (!job && !outputs && !record)
      throw new PreflightError("RUN_UNKNOWN", `no output folder and no Job of this service for run ${runId}`);
    const seal = outputs ? await readRunSeal(run) : { sealId: null, files: [] };
    const state = reportRunState(record, { job, pods, outputs, kubernetes: kube !== null });
    const summary = summarizeRun(runId, job, outputs, state);
    return {
      ...summary,
      job: job
        ? {
            name: job.name,
            namespace: job.namespace,
            creationTimestamp: job.creationTimestamp,
            startTime: job.startTime,
            completionTime: job.completionTime,
            active: job.active,
            ready: job.ready,
            succeeded: job.succeeded,
            failed: job.failed,
            conditions: job.conditions,
          }
        : null,
      pods: pods.map(({ labels: _labels, ...pod }) => pod),
      seal: { status: summary.sealStatus, ...seal },
      highlights: outputs ? await readRunHighlights(run) : null,
      // the record's outputs (issue 41 item 1): what a client fetches first, without listing the folder
      outputs: outputs ? (record?.outputs ?? null) : null,
    };
  });

  app.get("/api/runs/:runId/logs", async (request, reply) => {
    const runId = readRunId(request.params);
    const query = readQuery(request.query, ["namespace", "container", "follow", "pod", "tailLines"]);
    const namespaces = namespacesFor(query.namespace);
    const follow = readBoolean("follow", query.follow);
    const tailLines = readPositiveInt("tailLines", query.tailLines, 100_000);
    const kube = context.requireKube();
    const job = await findJob(kube, runId, namespaces);
    if (!job) throw new PreflightError("RUN_JOB_NOT_FOUND", `no Job of this service for run ${runId}`);
    const pods = await kube.listPods(job.namespace, `batch.kubernetes.io/job-name=${job.name}`);
    const pod = query.pod === undefined ? newestPod(pods) : pods.find((entry) => entry.name === query.pod);
    if (!pod)
      throw query.pod === undefined
        ? new PreflightError("LOG_NOT_READY", `Job ${job.name} has no pod yet; retry shortly`)
        : new PreflightError(
            "INVALID_INPUT",
            `pod ${query.pod} is not a pod of run ${runId}; its pods: ${pods.map((p) => p.name).join(", ") || "none"}`,
          );
    const names = pod.containers.map((container) => container.name);
    const containerName = query.container ?? names[0];
    const container = pod.containers.find((entry) => entry.name === containerName);
    if (!container || containerName === undefined)
      throw new PreflightError(
        "INVALID_INPUT",
        `container ${query.container ?? ""} is not in pod ${pod.name}; choose one of: ${names.join(", ")}`,
      );
    if (container.state.kind === "waiting" || container.state.kind === "unknown")
      throw new PreflightError(
        "LOG_NOT_READY",
        `container ${container.name} of pod ${pod.name} has not started${container.state.reason ? ` (${container.state.reason})` : ""}; retry shortly`,
      );
    const stream = await kube.readPodLog({
      namespace: job.namespace,
      pod: pod.name,
      container: container.name,
      follow,
      ...(tailLines !== undefined ? { tailLines } : {}),
    });
    reply
      .code(200)
      .header("content-type", "text/plain; charset=utf-8")
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .header("x-svc-pod", pod.name)
      .header("x-svc-container", container.name);
    return reply.send(stream);
  });
}
