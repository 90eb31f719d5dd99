// The parts of a pod spec the process kubelet reads, and the pure steps from them to a process:
// environment, argv, and paths under mounts as the host sees them.

/** A pod spec as the charts and preflight render it (the fields the kubelet honours). */
export interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
  ports?: { containerPort: number }[];
  restartPolicy?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  emptyDir?: Record<string, unknown>;
  csi?: { driver: string; volumeAttributes?: Record<string, string> };
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  configMap?: { name: string; items?: { key: string; path: string }[] };
  projected?: { sources: { serviceAccountToken?: { audience?: string; path: string } }[] };
}

/** What env resolution reads from the cluster: the pod's namespace and name, and Secret/ConfigMap data. */
export interface EnvSources {
  namespace: string;
  podName: string;
  dataOf(kind: "secrets" | "configmaps", namespace: string, name: string): Record<string, string>;
}

/**
 * A container's environment as the kubelet assembles it: `envFrom` ConfigMaps and Secrets first,
 * then `env` (plain values, Secret and ConfigMap keys, and the downward API fields in use here).
 */
export function resolveEnv(container: Container, spec: PodSpec, sources: EnvSources): Record<string, string> {
  const { namespace, podName, dataOf } = sources;
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, dataOf("configmaps", namespace, source.configMapRef.name));
    if (source.secretRef) Object.assign(env, dataOf("secrets", namespace, source.secretRef.name));
  }
  for (const entry of container.env ?? []) {
    const from = entry.valueFrom;
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (from?.secretKeyRef)
      env[entry.name] = dataOf("secrets", namespace, from.secretKeyRef.name)[from.secretKeyRef.key] ?? "";
    else if (from?.configMapKeyRef)
      env[entry.name] =
        dataOf("configmaps", namespace, from.configMapKeyRef.name)[from.configMapKeyRef.key] ?? "";
    else if (from?.fieldRef)
      env[entry.name] = downwardField(from.fieldRef.fieldPath, spec, namespace, podName);
  }
  return env;
}

function downwardField(field: string, spec: PodSpec, namespace: string, podName: string): string {
  if (field === "metadata.namespace") return namespace;
  if (field === "metadata.name") return podName;
  if (field === "spec.serviceAccountName") return spec.serviceAccountName ?? "default";
  return "";
}

/**
 * The argv of a container: its `command` (the first word mapped through `entrypoints` when it names
 * one) and `args`, or the image's entrypoint (by the image name: the repository's last segment
 * without tag or digest) and `args`. Null when the image has no entrypoint here.
 */
export function argvOf(
  container: Container,
  entrypoints: Readonly<Record<string, readonly string[]>>,
): string[] | null {
  const image = container.image.split("@")[0]?.replace(/:[^/:]*$/, "") ?? "";
  const imageName = image.slice(image.lastIndexOf("/") + 1);
  const [first, ...rest] = container.command ?? [];
  if (first !== undefined) {
    const mapped = entrypoints[first.slice(first.lastIndexOf("/") + 1)];
    return [...(mapped ?? [first]), ...rest, ...(container.args ?? [])];
  }
  const entrypoint = entrypoints[imageName];
  return entrypoint ? [...entrypoint, ...(container.args ?? [])] : null;
}

/**
 * Rewrites a path under one of the container's mounts to the host directory behind it (longest
 * mount path first). A value already inside a host directory of the node (`hostPaths`: roots a pod
 * passes on to the Jobs it launches) is a host path and stays, even when it also starts like a
 * mount path such as /tmp.
 */
export function pathTranslator(
  container: Container,
  hostDirs: ReadonlyMap<string, string>,
  hostPaths: readonly string[],
): (value: string) => string {
  const mounts = (container.volumeMounts ?? [])
    .map((mount) => ({ path: mount.mountPath.replace(/\/+$/, ""), host: hostDirs.get(mount.name) ?? "" }))
    .sort((a, b) => b.path.length - a.path.length);
  const inside = (value: string, dir: string) => value === dir || value.startsWith(`${dir}/`);
  return (value) => {
    if (hostPaths.some((dir) => inside(value, dir))) return value;
    const mount = mounts.find((candidate) => inside(value, candidate.path));
    return mount ? mount.host + value.slice(mount.path.length) : value;
  };
}
