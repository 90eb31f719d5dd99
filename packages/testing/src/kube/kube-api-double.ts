import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { matchesLabelSelector } from "./label-selector-match.ts";
import { containerNamesOf, PodLogStore, resolveLogContainer } from "./pod-log-store.ts";

/** One request the double received, in arrival order. */
export interface RecordedKubeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
  authorization: string | undefined;
  /** Status code the double answered with. */
  status: number;
}

/** A Kubernetes object as the double stores it (plain JSON). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    creationTimestamp?: string;
    uid?: string;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A failure injected for the next request(s) that match method and path. */
export interface InjectedFailure {
  method: string;
  /** Matched against the request path (without query). */
  path: RegExp;
  status: number;
  reason: string;
  message?: string;
  /** How many matching requests fail; default 1. */
  times?: number;
}

/** Options of {@link startKubeApiDouble}. */
export interface KubeApiDoubleOptions {
  /** Bearer token the double requires; when set, other requests get 401 Unauthorized. */
  token?: string;
}

/** A running Kubernetes API double; see {@link startKubeApiDouble}. */
export interface KubeApiDouble {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedKubeRequest[];
  /** Answers 403 Forbidden (as RBAC would) for every call in the namespace. */
  forbidNamespace(namespace: string): void;
  /** Makes the next matching request(s) fail with the given Status. */
  injectFailure(failure: InjectedFailure): void;
  /** Stored Job, or undefined. */
  getJob(namespace: string, name: string): KubeObject | undefined;
  /** Every stored Job in a namespace, oldest first. */
  listJobs(namespace: string): KubeObject[];
  /** Stores a Job directly (as if created earlier by someone else). */
  putJob(job: KubeObject): void;
  /** Replaces a stored Job's status (the Job controller's part). */
  setJobStatus(namespace: string, name: string, status: Record<string, unknown>): void;
  /** Stores a Pod directly (the Job controller's part). */
  putPod(pod: KubeObject): void;
  /** Every stored Pod in a namespace. */
  listPods(namespace: string): KubeObject[];
  /**
   * Stores a Secret or PersistentVolumeClaim (with metadata.namespace and name) that GET then
   * returns: what Helm's `lookup` reads under `helm template --dry-run=server`.
   */
  putCoreObject(resource: CoreResource, object: KubeObject): void;
  /** Appends text to a container's log (`pods/log`); open `follow=true` readers receive it at once. */
  appendPodLog(namespace: string, pod: string, container: string, text: string): void;
  /** The container terminated: `follow=true` readers of its log reach the end of the stream. */
  endPodLog(namespace: string, pod: string, container: string): void;
  /** Cuts the connections of `follow=true` readers of a container's log (no end of stream). */
  cutPodLog(namespace: string, pod: string, container: string): void;
  /** A stored Secret, ConfigMap or claim, or undefined. */
  getCoreObject(resource: CoreResource, namespace: string, name: string): KubeObject | undefined;
  /** Calls `listener` with every Job stored from now on (created through the API or putJob): the kubelet's watch. */
  onJobStored(listener: (job: KubeObject) => void): void;
  /** Calls `listener` with every Pod created through the API (`kubectl apply` of a bare pod): the kubelet's watch. */
  onPodCreated(listener: (pod: KubeObject) => void): void;
  /** Calls `listener` with every Pod deleted through the API or with its Job: the kubelet stops it. */
  onPodDeleted(listener: (namespace: string, name: string) => void): void;
  /**
   * Serves `pods/exec` with the handler (the kubelet's part). The real API upgrades the request to
   * a streaming protocol (SPDY or WebSocket `v5.channel.k8s.io`); this double takes the whole stdin
   * as the request body and answers `{stdout, stderr}` (base64) and `exitCode` as JSON. Only the
   * kubectl stand-in (test/support/kube-stand-in) speaks it.
   */
  onExec(handler: ExecHandler): void;
  /** Every stored Namespace name. */
  listNamespaces(): string[];
  /** Any other stored object (ServiceAccount, Role, Service, ...) by API path, or undefined. */
  getObject(apiPath: string): KubeObject | undefined;
  close(): Promise<void>;
}

/** One `pods/exec` call: the command runs in the pod's only (or named) container. */
export interface ExecRequest {
  namespace: string;
  pod: string;
  container: string | undefined;
  command: string[];
  stdin: Buffer | undefined;
}

/** What an exec ended with; a non-zero exitCode is the command's own exit status. */
export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export type ExecHandler = (request: ExecRequest) => Promise<ExecResult>;

/** The core/v1 resources besides Pods the double can hold. */
export type CoreResource = "secrets" | "configmaps" | "persistentvolumeclaims";

const CORE_KINDS: Record<CoreResource | "pods", string> = {
  pods: "Pod",
  secrets: "Secret",
  configmaps: "ConfigMap",
  persistentvolumeclaims: "PersistentVolumeClaim",
};

interface Route {
  method: string;
  pattern: RegExp;
  handle(match: RegExpExecArray, req: ParsedRequest): Reply | Promise<Reply>;
}

interface ParsedRequest {
  query: Record<string, string>;
  /** Every value of each query parameter (`command` repeats in `pods/exec`). */
  queryAll: Record<string, string[]>;
  body: unknown;
  raw: Buffer;
}

interface Reply {
  status: number;
  body: unknown;
  /** Set for a `pods/log` answer: the body is the container's log, streamed. */
  podLog?: { namespace: string; pod: string; container: string; follow: boolean; tailLines?: number };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>): Reply {
  return {
    status: code,
    body: {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    },
  };
}

function notFound(resource: string, name: string): Reply {
  return statusBody(404, "NotFound", `${resource} "${name}" not found`, {
    name,
    group: resource === "jobs" ? "batch" : "",
    kind: resource,
  });
}

/** Checks what the real API server's validation would reject first for a Job (a 422 Invalid). */
function findJobInvalidity(job: KubeObject): string | undefined {
  const name = job.metadata?.name;
  if (typeof name !== "string" || name === "")
    return "metadata.name: Required value: name or generateName is required";
  if (name.length > 63 || !DNS1123_SUBDOMAIN.test(name))
    return `metadata.name: Invalid value: "${name}": a lowercase RFC 1123 subdomain of at most 63 characters`;
  const template = (job.spec?.template ?? {}) as {
    spec?: { containers?: unknown[]; restartPolicy?: string };
  };
  const containers = template.spec?.containers;
  if (!Array.isArray(containers) || containers.length === 0)
    return "spec.template.spec.containers: Required value";
  const restart = template.spec?.restartPolicy;
  if (restart !== "Never" && restart !== "OnFailure")
    return `spec.template.spec.restartPolicy: Unsupported value: "${String(restart)}": supported values: "OnFailure", "Never"`;
  return undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Starts a Kubernetes API double on loopback: a real HTTP server implementing the batch/v1 Jobs
 * and core/v1 Pods calls the preflight service makes, answering with real Status objects and
 * codes (401, 403, 404, 409 AlreadyExists, 422 Invalid) and recording every request.
 */
export async function startKubeApiDouble(options: KubeApiDoubleOptions = {}): Promise<KubeApiDouble> {
  const jobs = new Map<string, KubeObject>();
  const pods = new Map<string, KubeObject>();
  const coreObjects = new Map<string, KubeObject>();
  const forbidden = new Set<string>();
  const failures: InjectedFailure[] = [];
  const requests: RecordedKubeRequest[] = [];
  const podLogs = new PodLogStore();
  const jobListeners: ((job: KubeObject) => void)[] = [];
  const podCreatedListeners: ((pod: KubeObject) => void)[] = [];
  const podDeletedListeners: ((namespace: string, name: string) => void)[] = [];
  const namespaces = new Set<string>();
  // Kinds the double stores without acting on them (ServiceAccount, Role, Service, ...), by API path.
  const otherObjects = new Map<string, KubeObject>();
  let execHandler: ExecHandler | undefined;
  let resourceVersion = 1000;

  const key = (namespace: string, name: string) => `${namespace}/${name}`;
  const inNamespace = (store: Map<string, KubeObject>, namespace: string) =>
    [...store.values()].filter((obj) => obj.metadata?.namespace === namespace);

  function storeJob(namespace: string, job: KubeObject): KubeObject {
    const stored: KubeObject = structuredClone(job);
    stored.apiVersion = "batch/v1";
    stored.kind = "Job";
    stored.metadata = {
      ...stored.metadata,
      namespace,
      uid: stored.metadata?.uid ?? randomUUID(),
      resourceVersion: String(++resourceVersion),
      creationTimestamp: stored.metadata?.creationTimestamp ?? new Date().toISOString(),
    };
    stored.status = stored.status ?? {};
    jobs.set(key(namespace, stored.metadata.name ?? ""), stored);
    for (const listener of jobListeners) listener(stored);
    return stored;
  }

  function stamp(object: KubeObject, namespace: string | undefined): KubeObject {
    const stored = structuredClone(object);
    stored.metadata = {
      ...stored.metadata,
      ...(namespace === undefined ? {} : { namespace }),
      uid: stored.metadata?.uid ?? randomUUID(),
      resourceVersion: String(++resourceVersion),
      creationTimestamp: stored.metadata?.creationTimestamp ?? new Date().toISOString(),
    };
    return stored;
  }

  function deletePod(namespace: string, name: string): void {
    pods.delete(key(namespace, name));
    for (const listener of podDeletedListeners) listener(namespace, name);
  }

  /** What the API server checks first on a create: a name, and the body's namespace is the URL's. */
  function createInvalidity(object: KubeObject, namespace: string, kind: string): Reply | undefined {
    const name = object.metadata?.name ?? "";
    if (name === "" || name.length > 253 || !DNS1123_SUBDOMAIN.test(name))
      return statusBody(
        422,
        "Invalid",
        `${kind} "${name}" is invalid: metadata.name: Invalid value: "${name}": a lowercase RFC 1123 subdomain`,
      );
    if (object.metadata?.namespace !== undefined && object.metadata.namespace !== namespace)
      return statusBody(400, "BadRequest", "the namespace of the provided object does not match the request");
    return undefined;
  }

  const writeRoutes: Route[] = [
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces$/,
      handle(_match, req) {
        const name = ((req.body ?? {}) as KubeObject).metadata?.name ?? "";
        if (!DNS1123_SUBDOMAIN.test(name) || name.length > 63)
          return statusBody(422, "Invalid", `Namespace "${name}" is invalid: metadata.name: Invalid value`);
        if (namespaces.has(name))
          return statusBody(409, "AlreadyExists", `namespaces "${name}" already exists`, {
            name,
            kind: "namespaces",
          });
        namespaces.add(name);
        return {
          status: 201,
          body: stamp({ apiVersion: "v1", kind: "Namespace", metadata: { name } }, undefined),
        };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)$/,
      handle(match) {
        const name = match[1] ?? "";
        return namespaces.has(name)
          ? { status: 200, body: { apiVersion: "v1", kind: "Namespace", metadata: { name } } }
          : notFound("namespaces", name);
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const pod = (req.body ?? {}) as KubeObject;
        if (pod.kind !== "Pod")
          return statusBody(400, "BadRequest", `the body kind ${String(pod.kind)} is not a Pod`);
        const invalid = createInvalidity(pod, namespace, "Pod");
        if (invalid) return invalid;
        const containers = (pod.spec?.containers ?? []) as unknown[];
        if (containers.length === 0)
          return statusBody(
            422,
            "Invalid",
            `Pod "${pod.metadata?.name}" is invalid: spec.containers: Required value`,
          );
        const name = pod.metadata?.name ?? "";
        if (pods.has(key(namespace, name)))
          return statusBody(409, "AlreadyExists", `pods "${name}" already exists`, { name, kind: "pods" });
        const stored = stamp(pod, namespace);
        stored.status = { phase: "Pending" };
        pods.set(key(namespace, name), stored);
        for (const listener of podCreatedListeners) setImmediate(() => listener(structuredClone(stored)));
        return { status: 201, body: stored };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/,
      handle(match) {
        const pod = pods.get(key(match[1] ?? "", match[2] ?? ""));
        return pod ? { status: 200, body: pod } : notFound("pods", match[2] ?? "");
      },
    },
    {
      method: "DELETE",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/,
      handle(match) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const pod = pods.get(key(namespace, name));
        if (!pod) return notFound("pods", name);
        deletePod(namespace, name);
        return { status: 200, body: pod };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/,
      async handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const pod = pods.get(key(namespace, name));
        if (!pod) return notFound("pods", name);
        const phase = String(pod.status?.phase ?? "Pending");
        if (phase !== "Running")
          return statusBody(
            400,
            "BadRequest",
            phase === "Pending"
              ? `pod ${name} is not running: current phase is Pending`
              : `cannot exec into a container in a completed pod; current phase is ${phase}`,
          );
        const command = req.queryAll.command ?? [];
        if (command.length === 0)
          return statusBody(400, "BadRequest", "you must specify at least one command for the container");
        const target = resolveLogContainer(name, containerNamesOf(pod), req.query.container);
        if (!target.ok) return statusBody(target.status, target.reason, target.message);
        if (!execHandler) return statusBody(500, "InternalError", "no kubelet serves exec on this double");
        const result = await execHandler({
          namespace,
          pod: name,
          container: target.container,
          command,
          stdin: req.query.stdin === "true" ? req.raw : undefined,
        });
        return {
          status: 200,
          body: {
            stdout: result.stdout.toString("base64"),
            stderr: result.stderr.toString("base64"),
            exitCode: result.exitCode,
          },
        };
      },
    },
    {
      // Jobs are immutable where it matters: a changed pod template is refused (install.md §8).
      method: "PUT",
      pattern: /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs\/([^/]+)$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const job = jobs.get(key(namespace, name));
        if (!job) return notFound("jobs", name);
        const next = (req.body ?? {}) as KubeObject;
        if (JSON.stringify(next.spec?.template) !== JSON.stringify(job.spec?.template))
          return statusBody(
            422,
            "Invalid",
            `Job.batch "${name}" is invalid: spec.template: Invalid value: field is immutable`,
            { name, group: "batch", kind: "Job" },
          );
        job.metadata = { ...job.metadata, labels: next.metadata?.labels ?? {} };
        return { status: 200, body: job };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps|persistentvolumeclaims)$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const resource = match[2] as CoreResource;
        const object = (req.body ?? {}) as KubeObject;
        const invalid = createInvalidity(object, namespace, CORE_KINDS[resource]);
        if (invalid) return invalid;
        const name = object.metadata?.name ?? "";
        const at = `${resource}/${key(namespace, name)}`;
        if (coreObjects.has(at))
          return statusBody(409, "AlreadyExists", `${resource} "${name}" already exists`, {
            name,
            kind: resource,
          });
        const stored = { apiVersion: "v1", kind: CORE_KINDS[resource], ...stamp(object, namespace) };
        coreObjects.set(at, stored);
        return { status: 201, body: stored };
      },
    },
    {
      method: "PUT",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps|persistentvolumeclaims)\/([^/]+)$/,
      handle(match, req) {
        const at = `${match[2]}/${key(match[1] ?? "", match[3] ?? "")}`;
        const existing = coreObjects.get(at);
        if (!existing) return notFound(match[2] ?? "", match[3] ?? "");
        const next = (req.body ?? {}) as KubeObject;
        // A claim's spec is immutable but for a larger storage request (install.md §8).
        if (match[2] === "persistentvolumeclaims") {
          const size = (o: KubeObject) =>
            JSON.stringify({ ...(o.spec ?? {}), resources: undefined, volumeName: undefined });
          if (size(next) !== size(existing))
            return statusBody(
              422,
              "Invalid",
              `PersistentVolumeClaim "${match[3]}" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims`,
            );
        }
        const stored = { apiVersion: "v1", kind: existing.kind, ...stamp(next, match[1]) };
        coreObjects.set(at, stored);
        return { status: 200, body: stored };
      },
    },
    {
      method: "DELETE",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps|persistentvolumeclaims)\/([^/]+)$/,
      handle(match) {
        const at = `${match[2]}/${key(match[1] ?? "", match[3] ?? "")}`;
        const existing = coreObjects.get(at);
        if (!existing) return notFound(match[2] ?? "", match[3] ?? "");
        coreObjects.delete(at);
        return { status: 200, body: existing };
      },
    },
  ];

  // Every other namespaced kind (ServiceAccount, Role, RoleBinding, Service, ...): stored, not acted on.
  const OTHER = /^\/(api\/v1|apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?$/;
  const otherRoutes: Route[] = [
    {
      method: "GET",
      pattern: OTHER,
      handle(match) {
        if (match[4] === undefined)
          return statusBody(405, "MethodNotAllowed", "list is not served for this kind");
        const found = otherObjects.get(match[0]);
        return found ? { status: 200, body: found } : notFound(match[3] ?? "", match[4]);
      },
    },
    {
      method: "POST",
      pattern: OTHER,
      handle(match, req) {
        if (match[4] !== undefined) return statusBody(405, "MethodNotAllowed", "POST takes a collection");
        const object = (req.body ?? {}) as KubeObject;
        const invalid = createInvalidity(object, match[2] ?? "", String(object.kind));
        if (invalid) return invalid;
        const at = `${match[0]}/${object.metadata?.name}`;
        if (otherObjects.has(at))
          return statusBody(409, "AlreadyExists", `${match[3]} "${object.metadata?.name}" already exists`);
        const stored = stamp(object, match[2]);
        otherObjects.set(at, stored);
        return { status: 201, body: stored };
      },
    },
    {
      method: "PUT",
      pattern: OTHER,
      handle(match, req) {
        if (match[4] === undefined || !otherObjects.has(match[0]))
          return notFound(match[3] ?? "", match[4] ?? "");
        const stored = stamp((req.body ?? {}) as KubeObject, match[2]);
        otherObjects.set(match[0], stored);
        return { status: 200, body: stored };
      },
    },
    {
      method: "DELETE",
      pattern: OTHER,
      handle(match) {
        const found = otherObjects.get(match[0]);
        if (!found) return notFound(match[3] ?? "", match[4] ?? "");
        otherObjects.delete(match[0]);
        return { status: 200, body: found };
      },
    },
  ];

  const routes: Route[] = [
    {
      // Discovery of core/v1, which clients (Helm's REST mapper) read before a lookup.
      method: "GET",
      pattern: /^\/api\/v1$/,
      handle() {
        return {
          status: 200,
          body: {
            kind: "APIResourceList",
            groupVersion: "v1",
            resources: Object.entries(CORE_KINDS).map(([name, kind]) => ({
              name,
              singularName: kind.toLowerCase(),
              namespaced: true,
              kind,
              verbs: ["get", "list"],
            })),
          },
        };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps|persistentvolumeclaims)\/([^/]+)$/,
      handle(match) {
        const found = coreObjects.get(`${match[2]}/${key(match[1] ?? "", match[3] ?? "")}`);
        return found ? { status: 200, body: found } : notFound(match[2] ?? "", match[3] ?? "");
      },
    },
    {
      method: "POST",
      pattern: /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const job = (req.body ?? {}) as KubeObject;
        if (job.kind !== undefined && job.kind !== "Job")
          return statusBody(400, "BadRequest", `the body kind ${String(job.kind)} is not a Job`);
        const invalid = findJobInvalidity(job);
        const name = job.metadata?.name ?? "";
        if (invalid)
          return statusBody(422, "Invalid", `Job.batch "${name}" is invalid: ${invalid}`, {
            name,
            group: "batch",
            kind: "Job",
          });
        if (job.metadata?.namespace !== undefined && job.metadata.namespace !== namespace)
          return statusBody(
            400,
            "BadRequest",
            "the namespace of the provided object does not match the request",
          );
        if (jobs.has(key(namespace, name)))
          return statusBody(409, "AlreadyExists", `jobs.batch "${name}" already exists`, {
            name,
            group: "batch",
            kind: "jobs",
          });
        return { status: 201, body: storeJob(namespace, job) };
      },
    },
    {
      method: "GET",
      pattern: /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs$/,
      handle(match, req) {
        const items = inNamespace(jobs, match[1] ?? "").filter((job) =>
          matchesLabelSelector(req.query.labelSelector, job.metadata?.labels ?? {}),
        );
        return {
          status: 200,
          body: {
            kind: "JobList",
            apiVersion: "batch/v1",
            metadata: { resourceVersion: String(resourceVersion) },
            items,
          },
        };
      },
    },
    {
      method: "GET",
      pattern: /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs\/([^/]+)$/,
      handle(match) {
        const job = jobs.get(key(match[1] ?? "", match[2] ?? ""));
        return job ? { status: 200, body: job } : notFound("jobs", match[2] ?? "");
      },
    },
    {
      method: "DELETE",
      pattern: /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs\/([^/]+)$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const job = jobs.get(key(namespace, name));
        if (!job) return notFound("jobs", name);
        jobs.delete(key(namespace, name));
        const body = (req.body ?? {}) as { propagationPolicy?: string };
        const policy = req.query.propagationPolicy ?? body.propagationPolicy ?? "Orphan";
        // batch/v1 Jobs default to orphaning their pods; only Background/Foreground remove them.
        if (policy !== "Orphan") {
          for (const [podKey, pod] of pods) {
            if (
              pod.metadata?.namespace === namespace &&
              pod.metadata.labels?.["batch.kubernetes.io/job-name"] === name
            )
              deletePod(namespace, pod.metadata.name ?? podKey);
          }
        }
        return { status: 200, body: job };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods$/,
      handle(match, req) {
        const items = inNamespace(pods, match[1] ?? "").filter((pod) =>
          matchesLabelSelector(req.query.labelSelector, pod.metadata?.labels ?? {}),
        );
        return {
          status: 200,
          body: {
            kind: "PodList",
            apiVersion: "v1",
            metadata: { resourceVersion: String(resourceVersion) },
            items,
          },
        };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const pod = pods.get(key(namespace, name));
        if (!pod) return notFound("pods", name);
        const target = resolveLogContainer(name, containerNamesOf(pod), req.query.container);
        if (!target.ok) return statusBody(target.status, target.reason, target.message);
        const tail = req.query.tailLines === undefined ? undefined : Number(req.query.tailLines);
        return {
          status: 200,
          body: null,
          podLog: {
            namespace,
            pod: name,
            container: target.container,
            follow: req.query.follow === "true",
            ...(tail !== undefined && Number.isInteger(tail) && tail >= 0 ? { tailLines: tail } : {}),
          },
        };
      },
    },
  ];

  function route(
    method: string,
    path: string,
    req: ParsedRequest,
    authorization: string | undefined,
  ): Reply | Promise<Reply> {
    if (options.token !== undefined && authorization !== `Bearer ${options.token}`)
      return statusBody(401, "Unauthorized", "Unauthorized");
    const injected = failures.find((failure) => failure.method === method && failure.path.test(path));
    if (injected) {
      injected.times = (injected.times ?? 1) - 1;
      if (injected.times <= 0) failures.splice(failures.indexOf(injected), 1);
      return statusBody(injected.status, injected.reason, injected.message ?? injected.reason);
    }
    const namespace = /^\/apis?\/(?:[^/]+\/)?v1\/namespaces\/([^/]+)\//.exec(path)?.[1];
    if (namespace !== undefined && forbidden.has(namespace)) {
      const resource = path.includes("/pods") ? "pods" : "jobs";
      return statusBody(
        403,
        "Forbidden",
        `${resource} is forbidden: User "system:serviceaccount:svc:preflight" cannot access resource "${resource}" in the namespace "${namespace}"`,
      );
    }
    for (const candidate of [...writeRoutes, ...routes, ...otherRoutes]) {
      if (candidate.method !== method) continue;
      const match = candidate.pattern.exec(path);
      if (match) return candidate.handle(match, req);
    }
    return statusBody(404, "NotFound", "the server could not find the requested resource");
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://double.invalid");
    const raw = await readBody(req);
    let body: unknown;
    let reply: Reply;
    const queryAll: Record<string, string[]> = {};
    for (const name of new Set(url.searchParams.keys())) queryAll[name] = url.searchParams.getAll(name);
    // pods/exec carries the command's stdin, not JSON.
    const isExec = url.pathname.endsWith("/exec");
    try {
      body = !isExec && raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      body = undefined;
    }
    if (!isExec && raw.length > 0 && body === undefined)
      reply = statusBody(400, "BadRequest", "the request body is not valid JSON");
    else
      reply = await route(
        req.method ?? "GET",
        decodeURIComponent(url.pathname),
        { query: Object.fromEntries(url.searchParams), queryAll, body, raw },
        req.headers.authorization,
      );
    requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      authorization: req.headers.authorization,
      status: reply.status,
    });
    if (reply.podLog) {
      const { follow, tailLines, ...target } = reply.podLog;
      podLogs.serve(res, target, { follow, ...(tailLines !== undefined ? { tailLines } : {}) });
      return;
    }
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(payload),
    });
    res.end(payload);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    forbidNamespace: (namespace) => forbidden.add(namespace),
    injectFailure: (failure) => failures.push({ ...failure }),
    getJob: (namespace, name) => jobs.get(key(namespace, name)),
    listJobs: (namespace) => inNamespace(jobs, namespace),
    putJob: (job) => {
      storeJob(job.metadata?.namespace ?? "default", job);
    },
    setJobStatus: (namespace, name, status) => {
      const job = jobs.get(key(namespace, name));
      if (!job) throw new Error(`no job ${namespace}/${name} in the double`);
      job.status = status;
    },
    putPod: (pod) => {
      const namespace = pod.metadata?.namespace ?? "default";
      const stored = structuredClone(pod);
      stored.apiVersion = "v1";
      stored.kind = "Pod";
      stored.metadata = {
        ...stored.metadata,
        namespace,
        uid: randomUUID(),
        creationTimestamp: stored.metadata?.creationTimestamp ?? new Date().toISOString(),
      };
      pods.set(key(namespace, stored.metadata.name ?? ""), stored);
    },
    listPods: (namespace) => inNamespace(pods, namespace),
    putCoreObject: (resource, object) => {
      const namespace = object.metadata?.namespace ?? "";
      const name = object.metadata?.name ?? "";
      coreObjects.set(`${resource}/${key(namespace, name)}`, {
        apiVersion: "v1",
        kind: CORE_KINDS[resource],
        ...structuredClone(object),
      });
    },
    appendPodLog: (namespace, pod, container, text) => podLogs.append(namespace, pod, container, text),
    endPodLog: (namespace, pod, container) => podLogs.end(namespace, pod, container),
    cutPodLog: (namespace, pod, container) => podLogs.cut(namespace, pod, container),
    getCoreObject: (resource, namespace, name) => coreObjects.get(`${resource}/${key(namespace, name)}`),
    onJobStored: (listener) => jobListeners.push(listener),
    onPodCreated: (listener) => podCreatedListeners.push(listener),
    onPodDeleted: (listener) => podDeletedListeners.push(listener),
    onExec: (handler) => {
      execHandler = handler;
    },
    listNamespaces: () => [...namespaces],
    getObject: (apiPath) => otherObjects.get(apiPath),
    close: () =>
      new Promise<void>((resolve, reject) => {
        podLogs.closeAll();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
