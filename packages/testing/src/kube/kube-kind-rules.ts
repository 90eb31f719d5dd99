// What the API server does differently per kind, as hooks on the one generic store: its
// validation on create (the first 422 a real server answers), what a replace may change
// (install.md §8: a Job's pod template and a claim's spec are immutable), and what follows a
// create or delete (the kubelet's watch, a Job's pods going with it).
import type { KubeObject } from "./kube-object-store.ts";
import { type Reply, statusBody } from "./kube-status.ts";

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The double's listeners the rules notify (the kubelet watches through them). */
export interface KindEvents {
  jobStored(job: KubeObject): void;
  podCreated(pod: KubeObject): void;
  podDeleted(namespace: string, name: string): void;
  /** A Job deleted with Background/Foreground propagation takes its pods. */
  deletePodsOfJob(namespace: string, job: string): void;
}

export interface KindRules {
  /** `kind` and `apiVersion` the stored object gets; undefined keeps the body's own. */
  kind?: string;
  apiVersion?: string;
  /** A create the server refuses (400/422), checked before the name is looked up. */
  refuseCreate(object: KubeObject, namespace: string): Reply | undefined;
  /** The server's part of a new object (a Pod starts Pending, a Job has a status). */
  initialise?(stored: KubeObject): void;
  /** A replace the server refuses, or undefined. */
  refuseReplace?(existing: KubeObject, next: KubeObject, name: string): Reply | undefined;
  /** What a replace stores; default: the new body, stamped. */
  replaced?(existing: KubeObject, next: KubeObject): KubeObject | undefined;
  created?(stored: KubeObject): void;
  deleted?(stored: KubeObject, propagationPolicy: string): void;
}

/** What the API server checks first on any create: a name, and the body's namespace is the URL's. */
function refuseAnyCreate(object: KubeObject, namespace: string, kind: string): Reply | undefined {
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

function jobRules(events: KindEvents): KindRules {
  return {
    kind: "Job",
    apiVersion: "batch/v1",
    refuseCreate(job, namespace) {
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
      return undefined;
    },
    initialise(job) {
      job.status = job.status ?? {};
    },
    refuseReplace(existing, next, name) {
      if (JSON.stringify(next.spec?.template) === JSON.stringify(existing.spec?.template)) return undefined;
      return statusBody(
        422,
        "Invalid",
        `Job.batch "${name}" is invalid: spec.template: Invalid value: field is immutable`,
        { name, group: "batch", kind: "Job" },
      );
    },
    // Only the labels of a stored Job change here; the controller owns its status.
    replaced(existing, next) {
      existing.metadata = { ...existing.metadata, labels: next.metadata?.labels ?? {} };
      return existing;
    },
    created: (job) => events.jobStored(job),
    deleted(job, propagationPolicy) {
      // batch/v1 Jobs default to orphaning their pods; only Background/Foreground remove them.
      if (propagationPolicy !== "Orphan")
        events.deletePodsOfJob(job.metadata?.namespace ?? "", job.metadata?.name ?? "");
    },
  };
}

function podRules(events: KindEvents): KindRules {
  return {
    kind: "Pod",
    apiVersion: "v1",
    refuseCreate(pod, namespace) {
      if (pod.kind !== "Pod")
        return statusBody(400, "BadRequest", `the body kind ${String(pod.kind)} is not a Pod`);
      const invalid = refuseAnyCreate(pod, namespace, "Pod");
      if (invalid) return invalid;
      const containers = (pod.spec?.containers ?? []) as unknown[];
      if (containers.length === 0)
        return statusBody(
          422,
          "Invalid",
          `Pod "${pod.metadata?.name}" is invalid: spec.containers: Required value`,
        );
      return undefined;
    },
    initialise(pod) {
      pod.status = { phase: "Pending" };
    },
    created: (pod) => events.podCreated(pod),
    deleted: (pod) => events.podDeleted(pod.metadata?.namespace ?? "", pod.metadata?.name ?? ""),
  };
}

/** A core/v1 kind stored and returned as written (Secret, ConfigMap). */
function storedCoreRules(kind: string): KindRules {
  return {
    kind,
    apiVersion: "v1",
    refuseCreate: (object, namespace) => refuseAnyCreate(object, namespace, kind),
  };
}

function claimRules(): KindRules {
  return {
    ...storedCoreRules("PersistentVolumeClaim"),
    // A claim's spec is immutable but for a larger storage request (install.md §8).
    refuseReplace(existing, next, name) {
      const fixedPart = (o: KubeObject) =>
        JSON.stringify({ ...(o.spec ?? {}), resources: undefined, volumeName: undefined });
      if (fixedPart(next) === fixedPart(existing)) return undefined;
      return statusBody(
        422,
        "Invalid",
        `PersistentVolumeClaim "${name}" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims`,
      );
    },
  };
}

/** Any other kind (ServiceAccount, Role, Service, ...): stored and returned, not acted on. */
const OTHER_RULES: KindRules = {
  refuseCreate: (object, namespace) => refuseAnyCreate(object, namespace, String(object.kind)),
};

/** The core/v1 kinds the double's discovery document lists, by resource name. */
export const CORE_KINDS = {
  pods: "Pod",
  secrets: "Secret",
  configmaps: "ConfigMap",
  persistentvolumeclaims: "PersistentVolumeClaim",
} as const;

/** The rules of every kind, by `group/resource` (`""/pods`, `batch/jobs`). */
export function kindRulesFor(events: KindEvents): (group: string, resource: string) => KindRules {
  const rules = new Map<string, KindRules>([
    ["batch/jobs", jobRules(events)],
    ["/pods", podRules(events)],
    ["/secrets", storedCoreRules(CORE_KINDS.secrets)],
    ["/configmaps", storedCoreRules(CORE_KINDS.configmaps)],
    ["/persistentvolumeclaims", claimRules()],
  ]);
  return (group, resource) => rules.get(`${group}/${resource}`) ?? OTHER_RULES;
}
