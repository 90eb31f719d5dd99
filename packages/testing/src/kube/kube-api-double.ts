import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CORE_KINDS, type KindRules, kindRulesFor } from "./kube-kind-rules.ts";
import {
  collectionPath,
  itemPath,
  type KubeObject,
  KubeObjectStore,
  type ResourceAddress,
} from "./kube-object-store.ts";
import { alreadyExists, notFound, type Reply, statusBody } from "./kube-status.ts";
import { matchesLabelSelector } from "./label-selector-match.ts";
import { containerNamesOf, PodLogStore, resolveLogContainer } from "./pod-log-store.ts";

export type { KubeObject } from "./kube-object-store.ts";

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

interface ParsedRequest {
  query: Record<string, string>;
  /** Every value of each query parameter (`command` repeats in `pods/exec`). */
  queryAll: Record<string, string[]>;
  body: unknown;
  raw: Buffer;
}

interface Route {
  method: string;
  pattern: RegExp;
  handle(match: RegExpExecArray, req: ParsedRequest): Reply | Promise<Reply>;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
// Any namespaced object or collection: `/api/v1/...` (core) or `/apis/{group}/{version}/...`.
const NAMESPACED = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?$/;
const JOBS = (namespace: string): ResourceAddress => ({
  group: "batch",
  version: "v1",
  namespace,
  resource: "jobs",
});
const PODS = (namespace: string): ResourceAddress => ({
  group: "",
  version: "v1",
  namespace,
  resource: "pods",
});
const core = (namespace: string, resource: CoreResource): ResourceAddress => ({
  group: "",
  version: "v1",
  namespace,
  resource,
});

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The server's `kind` and `apiVersion` on a stored object of a known kind. */
function withKind(rules: KindRules, object: KubeObject): KubeObject {
  if (rules.kind === undefined) return object;
  return { ...object, apiVersion: rules.apiVersion, kind: rules.kind };
}

/**
 * Starts a Kubernetes API double on loopback: a real HTTP server implementing the batch/v1 Jobs
 * and core/v1 Pods calls the preflight service makes, answering with real Status objects and
 * codes (401, 403, 404, 409 AlreadyExists, 422 Invalid) and recording every request. Every kind
 * lives in one store keyed by API path; what differs per kind is in kube-kind-rules.ts.
 */
export async function startKubeApiDouble(options: KubeApiDoubleOptions = {}): Promise<KubeApiDouble> {
  const store = new KubeObjectStore();
  const forbidden = new Set<string>();
  const failures: InjectedFailure[] = [];
  const requests: RecordedKubeRequest[] = [];
  const podLogs = new PodLogStore();
  const jobListeners: ((job: KubeObject) => void)[] = [];
  const podCreatedListeners: ((pod: KubeObject) => void)[] = [];
  const podDeletedListeners: ((namespace: string, name: string) => void)[] = [];
  const namespaces = new Set<string>();
  let execHandler: ExecHandler | undefined;

  function deletePod(namespace: string, name: string): void {
    store.delete(itemPath(PODS(namespace), name));
    for (const listener of podDeletedListeners) listener(namespace, name);
  }

  const rulesOf = kindRulesFor({
    jobStored: (job) => {
      for (const listener of jobListeners) listener(job);
    },
    podCreated: (pod) => {
      for (const listener of podCreatedListeners) setImmediate(() => listener(structuredClone(pod)));
    },
    podDeleted: (namespace, name) => {
      for (const listener of podDeletedListeners) listener(namespace, name);
    },
    deletePodsOfJob: (namespace, job) => {
      for (const pod of store.list(collectionPath(PODS(namespace))))
        if (pod.metadata?.labels?.["batch.kubernetes.io/job-name"] === job)
          deletePod(namespace, pod.metadata.name ?? "");
    },
  });

  /** Stores a new object as the server would: its kind, server fields, initial status, then watchers. */
  function create(address: ResourceAddress, object: KubeObject): KubeObject {
    const rules = rulesOf(address.group, address.resource);
    const stored = withKind(rules, store.stamp(object, address.namespace));
    rules.initialise?.(stored);
    store.set(itemPath(address, stored.metadata?.name ?? ""), stored);
    rules.created?.(stored);
    return stored;
  }

  function addressOf(match: RegExpExecArray): ResourceAddress {
    return {
      group: match[1] === undefined ? (match[2] ?? "") : "",
      version: match[1] ?? match[3] ?? "",
      namespace: match[4] ?? "",
      resource: match[5] ?? "",
    };
  }

  // The generic create/list/get/replace/delete every namespaced kind shares.
  const objectRoutes: Route[] = [
    {
      method: "GET",
      pattern: NAMESPACED,
      handle(match, req) {
        const address = addressOf(match);
        const name = match[6];
        if (name !== undefined) {
          const found = store.get(itemPath(address, name));
          return found ? { status: 200, body: found } : notFound(address.resource, address.group, name);
        }
        const kind = rulesOf(address.group, address.resource).kind;
        const items = store
          .list(collectionPath(address))
          .filter((object) => matchesLabelSelector(req.query.labelSelector, object.metadata?.labels ?? {}));
        return {
          status: 200,
          body: {
            kind: `${kind ?? ""}List`,
            apiVersion: address.group === "" ? address.version : `${address.group}/${address.version}`,
            metadata: { resourceVersion: store.resourceVersion },
            items,
          },
        };
      },
    },
    {
      method: "POST",
      pattern: NAMESPACED,
      handle(match, req) {
        if (match[6] !== undefined) return statusBody(405, "MethodNotAllowed", "POST takes a collection");
        const address = addressOf(match);
        const object = (req.body ?? {}) as KubeObject;
        const refused = rulesOf(address.group, address.resource).refuseCreate(object, address.namespace);
        if (refused) return refused;
        const name = object.metadata?.name ?? "";
        if (store.has(itemPath(address, name))) return alreadyExists(address.resource, address.group, name);
        return { status: 201, body: create(address, object) };
      },
    },
    {
      method: "PUT",
      pattern: NAMESPACED,
      handle(match, req) {
        const address = addressOf(match);
        const name = match[6] ?? "";
        const path = itemPath(address, name);
        const existing = store.get(path);
        if (match[6] === undefined || !existing) return notFound(address.resource, address.group, name);
        const rules = rulesOf(address.group, address.resource);
        const next = (req.body ?? {}) as KubeObject;
        const refused = rules.refuseReplace?.(existing, next, name);
        if (refused) return refused;
        const stored =
          rules.replaced?.(existing, next) ?? withKind(rules, store.stamp(next, address.namespace));
        store.set(path, stored);
        return { status: 200, body: stored };
      },
    },
    {
      method: "DELETE",
      pattern: NAMESPACED,
      handle(match, req) {
        const address = addressOf(match);
        const name = match[6] ?? "";
        const found = match[6] === undefined ? undefined : store.delete(itemPath(address, name));
        if (!found) return notFound(address.resource, address.group, name);
        const body = (req.body ?? {}) as { propagationPolicy?: string };
        rulesOf(address.group, address.resource).deleted?.(
          found,
          req.query.propagationPolicy ?? body.propagationPolicy ?? "Orphan",
        );
        return { status: 200, body: found };
      },
    },
  ];

  const clusterRoutes: Route[] = [
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
      method: "POST",
      pattern: /^\/api\/v1\/namespaces$/,
      handle(_match, req) {
        const name = ((req.body ?? {}) as KubeObject).metadata?.name ?? "";
        if (!DNS1123_LABEL.test(name) || name.length > 63)
          return statusBody(422, "Invalid", `Namespace "${name}" is invalid: metadata.name: Invalid value`);
        if (namespaces.has(name)) return alreadyExists("namespaces", "", name);
        namespaces.add(name);
        return {
          status: 201,
          body: store.stamp({ apiVersion: "v1", kind: "Namespace", metadata: { name } }, undefined),
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
          : notFound("namespaces", "", name);
      },
    },
  ];

  // The kubelet's subresources of a Pod.
  const podRoutes: Route[] = [
    {
      method: "GET",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/,
      handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const pod = store.get(itemPath(PODS(namespace), name));
        if (!pod) return notFound("pods", "", name);
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
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/,
      async handle(match, req) {
        const namespace = match[1] ?? "";
        const name = match[2] ?? "";
        const pod = store.get(itemPath(PODS(namespace), name));
        if (!pod) return notFound("pods", "", name);
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
    for (const candidate of [...clusterRoutes, ...podRoutes, ...objectRoutes]) {
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
    getJob: (namespace, name) => store.get(itemPath(JOBS(namespace), name)),
    listJobs: (namespace) => store.list(collectionPath(JOBS(namespace))),
    putJob: (job) => {
      create(JOBS(job.metadata?.namespace ?? "default"), job);
    },
    setJobStatus: (namespace, name, status) => {
      const job = store.get(itemPath(JOBS(namespace), name));
      if (!job) throw new Error(`no job ${namespace}/${name} in the double`);
      job.status = status;
    },
    // The Job controller's part: stored as is (no Pending phase, no kubelet watch).
    putPod: (pod) => {
      const namespace = pod.metadata?.namespace ?? "default";
      const stored = withKind(rulesOf("", "pods"), store.stamp(pod, namespace));
      store.set(itemPath(PODS(namespace), stored.metadata?.name ?? ""), stored);
    },
    listPods: (namespace) => store.list(collectionPath(PODS(namespace))),
    putCoreObject: (resource, object) => {
      const address = core(object.metadata?.namespace ?? "", resource);
      store.set(
        itemPath(address, object.metadata?.name ?? ""),
        withKind(rulesOf("", resource), structuredClone(object)),
      );
    },
    appendPodLog: (namespace, pod, container, text) => podLogs.append(namespace, pod, container, text),
    endPodLog: (namespace, pod, container) => podLogs.end(namespace, pod, container),
    cutPodLog: (namespace, pod, container) => podLogs.cut(namespace, pod, container),
    getCoreObject: (resource, namespace, name) => store.get(itemPath(core(namespace, resource), name)),
    onJobStored: (listener) => jobListeners.push(listener),
    onPodCreated: (listener) => podCreatedListeners.push(listener),
    onPodDeleted: (listener) => podDeletedListeners.push(listener),
    onExec: (handler) => {
      execHandler = handler;
    },
    listNamespaces: () => [...namespaces],
    getObject: (apiPath) => store.get(apiPath),
    close: () =>
      new Promise<void>((resolve, reject) => {
        podLogs.closeAll();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
