import assert from "node:assert/strict";
import { assertValidKubeObject } from "./kube-schema.ts";
import type { KubeObject } from "./render.ts";

/** Minimal shapes of the pod fields the chart tests look at. */
export interface Container {
  name: string;
  image: string;
  restartPolicy?: string;
  env?: { name: string; value?: string; valueFrom?: Record<string, Record<string, string>> }[];
  envFrom?: { configMapRef?: { name: string } }[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  ports?: { name?: string; containerPort: number }[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Record<string, unknown>[];
  securityContext?: Record<string, unknown>;
  serviceAccountName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Record<string, unknown>[];
  restartPolicy?: string;
  automountServiceAccountToken?: boolean;
}

export interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

/** The pod template of a Job or Deployment. */
export function podTemplateOf(object: KubeObject): PodTemplate {
  const spec = object.spec as { template?: PodTemplate } | undefined;
  assert.ok(spec?.template, `${object.kind}/${object.metadata.name} has no pod template`);
  return spec.template;
}

/** Every container of a pod spec, init containers included. */
export function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

/** Value of a plain env var of a container (undefined when absent or taken from a reference). */
export function envValue(container: Container, name: string): string | undefined {
  return container.env?.find((e) => e.name === name)?.value;
}

/**
 * What every rendered object must satisfy: valid against the Kubernetes schema without unknown
 * fields, a DNS-label-sized name, and the standard app.kubernetes.io labels.
 */
export async function assertWellFormed(objects: KubeObject[]): Promise<void> {
  assert.ok(objects.length > 0, "the chart rendered no objects");
  for (const object of objects) {
    await assertValidKubeObject(object);
    const name = object.metadata.name;
    assert.ok(name.length <= 63, `${object.kind}/${name} is longer than 63 characters`);
    assert.match(name, /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, `${object.kind}/${name} is no valid name`);
    const labels = object.metadata.labels ?? {};
    for (const key of [
      "app.kubernetes.io/name",
      "app.kubernetes.io/instance",
      "app.kubernetes.io/version",
      "app.kubernetes.io/managed-by",
    ]) {
      assert.ok(labels[key], `${object.kind}/${name} lacks the label ${key}`);
      assert.ok(labels[key].length <= 63, `${object.kind}/${name} label ${key} is longer than 63 characters`);
    }
  }
}

/**
 * The restricted Pod Security Standard: non-root, no privilege escalation, all capabilities
 * dropped, seccomp RuntimeDefault, read-only root filesystem; every writable path is a volume.
 */
export function assertRestrictedSecurity(spec: PodSpec, where: string): void {
  const pod = spec.securityContext ?? {};
  assert.equal(pod.runAsNonRoot, true, `${where}: pod runAsNonRoot`);
  assert.deepEqual(pod.seccompProfile, { type: "RuntimeDefault" }, `${where}: pod seccomp profile`);
  for (const container of allContainers(spec)) {
    const sc = container.securityContext ?? {};
    const at = `${where} container ${container.name}`;
    assert.equal(sc.runAsNonRoot, true, `${at}: runAsNonRoot`);
    assert.equal(sc.allowPrivilegeEscalation, false, `${at}: allowPrivilegeEscalation`);
    assert.equal(sc.readOnlyRootFilesystem, true, `${at}: readOnlyRootFilesystem`);
    assert.deepEqual(sc.capabilities, { drop: ["ALL"] }, `${at}: capabilities`);
    assert.deepEqual(sc.seccompProfile, { type: "RuntimeDefault" }, `${at}: seccomp profile`);
    assert.notEqual(sc.privileged, true, `${at}: privileged`);
    const mounts = (container.volumeMounts ?? []).map((m) => m.mountPath);
    assert.ok(mounts.includes("/tmp") || container.name === "ubbagent", `${at}: no writable /tmp volume`);
  }
}
