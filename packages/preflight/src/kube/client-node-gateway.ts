import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  HttpMethod,
  KubeConfig,
  RequestContext,
  type V1Job,
  type V1Pod,
} from "@kubernetes/client-node";
import { fetch as undiciFetch } from "undici";
import { PreflightError } from "../errors.ts";
import type { JobManifest, JobSummary, KubeGateway, PodLogRequest, PodSummary } from "./kube-gateway.ts";

/** How {@link createClientNodeGateway} loads its configuration. */
export type ClientNodeSource = { mode: "in-cluster" } | { mode: "kubeconfig"; path: string };

interface ContextClients {
  batch: BatchV1Api;
  core: CoreV1Api;
  config: KubeConfig;
}

// The API answers failures with a Status object; its `message` is what an operator needs
// (e.g. the RBAC verb and resource that were refused). Bounded so a proxy's HTML page cannot
// flood the response.
function statusMessage(body: unknown): string | undefined {
  let parsed: unknown = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.slice(0, 300) || undefined;
    }
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message.slice(0, 500) : undefined;
}

/** Maps a client-node failure to the service's error codes (issue 5: 403, 404, 409, 422, never a bare 500). */
export function toKubeError(error: unknown): PreflightError {
  if (error instanceof PreflightError) return error;
  if (error instanceof ApiException) {
    const detail = statusMessage(error.body);
    const suffix = detail ? `: ${detail}` : "";
    switch (error.code) {
      case 403:
        return new PreflightError("KUBE_FORBIDDEN", `Kubernetes refused the call (403)${suffix}`);
      case 404:
        return new PreflightError("KUBE_NOT_FOUND", `Kubernetes: not found (404)${suffix}`);
      case 409:
        return new PreflightError("KUBE_CONFLICT", `Kubernetes: conflict (409)${suffix}`);
      case 422:
        return new PreflightError("KUBE_INVALID", `Kubernetes rejected the object (422)${suffix}`);
      case 401:
        return new PreflightError(
          "KUBE_UNAVAILABLE",
          "Kubernetes rejected the service's own credentials (401)",
        );
      default:
        return new PreflightError("KUBE_UNAVAILABLE", `Kubernetes answered ${error.code}${suffix}`);
    }
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new PreflightError("KUBE_UNAVAILABLE", `Kubernetes API unreachable: ${reason.slice(0, 300)}`);
}

function toJobSummary(job: V1Job): JobSummary {
  const iso = (value: Date | string | undefined) =>
    value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);
  return {
    name: job.metadata?.name ?? "",
    namespace: job.metadata?.namespace ?? "",
    labels: job.metadata?.labels ?? {},
    annotations: job.metadata?.annotations ?? {},
    creationTimestamp: iso(job.metadata?.creationTimestamp),
    startTime: iso(job.status?.startTime),
    completionTime: iso(job.status?.completionTime),
    active: job.status?.active ?? 0,
    ready: job.status?.ready ?? 0,
    succeeded: job.status?.succeeded ?? 0,
    failed: job.status?.failed ?? 0,
    conditions: (job.status?.conditions ?? []).map((condition) => ({
      type: condition.type,
      status: condition.status,
      ...(condition.reason ? { reason: condition.reason } : {}),
      ...(condition.message ? { message: condition.message } : {}),
      ...(condition.lastTransitionTime
        ? { lastTransitionTime: iso(condition.lastTransitionTime) ?? "" }
        : {}),
    })),
  };
}

function toPodSummary(pod: V1Pod): PodSummary {
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((status) => [status.name, status]));
  const iso = (value: Date | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
  return {
    name: pod.metadata?.name ?? "",
    phase: pod.status?.phase ?? "Unknown",
    startTime: pod.status?.startTime ? new Date(pod.status.startTime).toISOString() : null,
    labels: pod.metadata?.labels ?? {},
    containers: (pod.spec?.containers ?? []).map((container) => {
      const status = statuses.get(container.name);
      const state = status?.state;
      return {
        name: container.name,
        image: status?.image ?? container.image ?? "",
        ready: status?.ready ?? false,
        restarts: status?.restartCount ?? 0,
        state: state?.running
          ? {
              kind: "running" as const,
              ...(state.running.startedAt ? { since: iso(state.running.startedAt) } : {}),
            }
          : state?.terminated
            ? {
                kind: "terminated" as const,
                exitCode: state.terminated.exitCode,
                ...(state.terminated.reason ? { reason: state.terminated.reason } : {}),
                ...(state.terminated.finishedAt ? { since: iso(state.terminated.finishedAt) } : {}),
              }
            : state?.waiting
              ? {
                  kind: "waiting" as const,
                  ...(state.waiting.reason ? { reason: state.waiting.reason } : {}),
                }
              : { kind: "unknown" as const },
      };
    }),
  };
}

/**
 * `GET /api/v1/namespaces/{ns}/pods/{pod}/log` with the kubeconfig's credentials and TLS settings.
 * Not client-node's `Log` helper: it pipes the API's body into the caller's stream without an
 * error handler, so a connection cut mid-follow would leave our response hanging or crash the
 * process. Here the body is returned as a Readable whose errors reach the HTTP layer, and
 * closing it aborts the request.
 */
async function openPodLog(config: KubeConfig, request: PodLogRequest): Promise<Readable> {
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new PreflightError("KUBE_UNAVAILABLE", "the kubeconfig has no current cluster");
  const url = new URL(
    `${cluster.server.replace(/\/$/, "")}/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/log`,
  );
  url.searchParams.set("container", request.container);
  url.searchParams.set("follow", String(request.follow));
  if (request.tailLines !== undefined) url.searchParams.set("tailLines", String(request.tailLines));
  const context = new RequestContext(url.toString(), HttpMethod.GET);
  await config.applySecurityAuthentication(context);
  const controller = new AbortController();
  const dispatcher = context.getDispatcher();
  const response = await undiciFetch(url, {
    headers: context.getHeaders(),
    signal: controller.signal,
    ...(dispatcher ? { dispatcher } : {}),
  });
  if (response.status !== 200 || !response.body)
    throw new ApiException(response.status, "pods/log", await response.text(), {});
  const stream = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
  stream.once("close", () => controller.abort());
  return stream;
}

/**
 * The {@link KubeGateway} over `@kubernetes/client-node`: the pod's service account in-cluster,
 * a kubeconfig file otherwise. Throws on an unreadable kubeconfig (a start-up problem).
 */
export function createClientNodeGateway(source: ClientNodeSource): KubeGateway {
  const base = new KubeConfig();
  if (source.mode === "in-cluster") base.loadFromCluster();
  else base.loadFromFile(source.path);
  const contexts = base.getContexts().map((context) => context.name);
  const clients = new Map<string, ContextClients>();

  function clientsFor(context?: string): ContextClients {
    const name = context ?? base.getCurrentContext();
    let found = clients.get(name);
    if (!found) {
      const config = new KubeConfig();
      config.loadFromString(base.exportConfig());
      config.setCurrentContext(name);
      found = {
        batch: config.makeApiClient(BatchV1Api),
        core: config.makeApiClient(CoreV1Api),
        config,
      };
      clients.set(name, found);
    }
    return found;
  }

  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toKubeError(error);
    }
  }

  return {
    inCluster: source.mode === "in-cluster",
    listContexts: () => [...contexts],
    createJob: (job: JobManifest) =>
      call(async () =>
        toJobSummary(
          await clientsFor().batch.createNamespacedJob({
            namespace: job.metadata.namespace,
            body: job as V1Job,
          }),
        ),
      ),
    listJobs: (namespace, labelSelector) =>
      call(async () => {
        const list = await clientsFor().batch.listNamespacedJob({ namespace, labelSelector });
        return list.items.map(toJobSummary);
      }),
    deleteJob: (namespace, name) =>
      call(async () => {
        // Jobs orphan their pods unless told otherwise (domain notes: delete with Background).
        await clientsFor().batch.deleteNamespacedJob({ name, namespace, propagationPolicy: "Background" });
      }),
    listPods: (namespace, labelSelector, context) =>
      call(async () => {
        const list = await clientsFor(context).core.listNamespacedPod({
          namespace,
          ...(labelSelector ? { labelSelector } : {}),
        });
        return list.items.map(toPodSummary);
      }),
    readPodLog: (request: PodLogRequest) => call(() => openPodLog(clientsFor().config, request)),
  };
}
