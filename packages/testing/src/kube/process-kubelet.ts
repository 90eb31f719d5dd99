import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OidcIssuerDouble } from "../oidc/oidc-issuer-double.ts";
import { findFreePort } from "../postgres/test-postgres.ts";
import { createTempDir, type TempDir } from "../temp/temp-dir.ts";
import type { ExecRequest, ExecResult, KubeApiDouble, KubeObject } from "./kube-api-double.ts";
import { argvOf, type Container, type PodSpec, pathTranslator, resolveEnv } from "./pod-spec.ts";

/** Options of {@link startProcessKubelet}. */
export interface ProcessKubeletOptions {
  double: KubeApiDouble;
  /**
   * argv prefix of each image's entrypoint, by image name (the last path segment of the repository,
   * without tag or digest, e.g. `svc-runner`) and by command (`command[0]`, e.g. `svc-runner`).
   */
  entrypoints: Readonly<Record<string, readonly string[]>>;
  /** Host directories standing in for volumes: PersistentVolumeClaim name → dir. */
  claims?: Readonly<Record<string, string>>;
  /** GCS FUSE CSI buckets: bucket name → dir. */
  buckets?: Readonly<Record<string, string>>;
  /** Issues projected service account tokens (`sub` = `system:serviceaccount:<ns>:<sa>`). */
  issuer?: OidcIssuerDouble;
  /** Given as KUBECONFIG to pods that keep their service account token (no `automountServiceAccountToken: false`). */
  kubeconfig?: string;
  /** Host port of a container port, by `<owner name>:<container port>`; default a free port. */
  hostPorts?: Readonly<Record<string, number>>;
  /** Environment every process starts from (PATH, ...); nothing else of the test's environment leaks in. */
  baseEnv?: Readonly<Record<string, string>>;
}

/** A pod the kubelet runs: one process per container. */
export interface RunningPod {
  readonly name: string;
  readonly namespace: string;
  /** Container port → loopback host port. */
  readonly ports: Readonly<Record<number, number>>;
  /** Exit code of the (last) container, once it exited. */
  readonly exited: Promise<number>;
  logs(): string;
}

/** A simulated node; see {@link startProcessKubelet}. */
export interface ProcessKubelet {
  /** Starts the pod of a rendered Deployment (one replica). */
  runDeployment(deployment: KubeObject, namespace: string): Promise<RunningPod>;
  /** Resolves with Complete or Failed once the Job's pod exited. */
  waitForJob(namespace: string, name: string, timeoutMs?: number): Promise<"Complete" | "Failed">;
  /** Output of the pod a Job ran ("" before it started). */
  jobLogs(namespace: string, name: string): string;
  /** Problems the kubelet met (a missing claim, an unknown image), as events would say. */
  readonly events: string[];
  /** Kills every process still running and removes every temp dir. */
  stop(): Promise<void>;
}

class PodStartError extends Error {}

/**
 * A kubelet for the Kubernetes API double (issue 13 item 4): Jobs stored in the double, and
 * Deployments handed to {@link ProcessKubelet.runDeployment}, run each container as a local process:
 * the image's entrypoint mapped to a workspace bin, the rendered command/args/env, env from
 * ConfigMaps and Secrets stored in the double, projected service account tokens from the OIDC
 * issuer double, and host directories standing in for claims, buckets and emptyDirs. A local
 * process cannot mount at `/data`, so each env value and argument that names a path under a mount
 * is rewritten to the host directory; a `PORT` that names a container port becomes a free loopback
 * port. Pod phases, Job conditions and logs are written back to the double.
 */
export function startProcessKubelet(options: ProcessKubeletOptions): ProcessKubelet {
  const { double } = options;
  const events: string[] = [];
  const children = new Set<ChildProcess>();
  const dirs: TempDir[] = [];
  const jobOutcomes = new Map<string, Promise<"Complete" | "Failed">>();
  const jobPods = new Map<string, RunningPod>();
  // The pod instance each name stands for now: a pod deleted through the API, or replaced by a new
  // one of the same name (the scripts' helper pods), is no longer written by its old process.
  const currentPods = new Map<string, symbol>();
  // What `pods/exec` needs of a running pod: its mount paths mapped to host dirs, and its env.
  const execTargets = new Map<
    string,
    { translate: (value: string) => string; env: Record<string, string> }
  >();
  const podChildren = new Map<string, ChildProcess>();

  const note = (event: string) => events.push(event);

  async function tempDir(prefix: string): Promise<string> {
    const dir = await createTempDir(prefix);
    dirs.push(dir);
    return dir.path;
  }

  function dataOf(kind: "secrets" | "configmaps", namespace: string, name: string): Record<string, string> {
    const object = double.getCoreObject(kind, namespace, name);
    if (!object)
      throw new PodStartError(`${kind === "secrets" ? "secret" : "configmap"} "${name}" not found`);
    const data = (object.data ?? {}) as Record<string, string>;
    if (kind === "configmaps") return { ...data };
    return Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
    );
  }

  async function mountVolumes(spec: PodSpec, namespace: string): Promise<Map<string, string>> {
    const hostDirs = new Map<string, string>();
    for (const volume of spec.volumes ?? []) {
      let dir: string | undefined;
      if (volume.persistentVolumeClaim) {
        dir = options.claims?.[volume.persistentVolumeClaim.claimName];
        if (dir === undefined)
          throw new PodStartError(
            `persistentvolumeclaim "${volume.persistentVolumeClaim.claimName}" not found`,
          );
      } else if (volume.csi) {
        const bucket = volume.csi.volumeAttributes?.bucketName ?? "";
        dir = options.buckets?.[bucket];
        if (dir === undefined) throw new PodStartError(`bucket "${bucket}" is not mounted on this node`);
      } else if (volume.emptyDir) {
        dir = await tempDir("svc-kubelet-empty-");
      } else if (volume.secret || volume.configMap) {
        dir = await tempDir("svc-kubelet-files-");
        const data = volume.secret
          ? dataOf("secrets", namespace, volume.secret.secretName)
          : dataOf("configmaps", namespace, volume.configMap?.name ?? "");
        const items =
          (volume.secret ?? volume.configMap)?.items ?? Object.keys(data).map((k) => ({ key: k, path: k }));
        for (const item of items)
          await writeFile(join(dir, item.path), data[item.key] ?? "", { mode: 0o600 });
      } else if (volume.projected) {
        dir = await tempDir("svc-kubelet-token-");
        for (const source of volume.projected.sources) {
          const token = source.serviceAccountToken;
          if (!token) continue;
          if (!options.issuer) throw new PodStartError("projected service account token without an issuer");
          const subject = `system:serviceaccount:${namespace}:${spec.serviceAccountName ?? "default"}`;
          const minted = await options.issuer.mintToken({
            audience: token.audience ?? "",
            subject,
            expiresInSec: 3600,
          });
          await writeFile(join(dir, token.path), minted, { mode: 0o600 });
        }
      }
      if (dir === undefined)
        throw new PodStartError(`volume "${volume.name}" has a kind this kubelet cannot mount`);
      hostDirs.set(volume.name, dir);
    }
    return hostDirs;
  }

  // Directories of this node: a value already inside one is a host path (e.g. roots a pod passes on
  // to the Jobs it launches) and stays as it is, even when it also starts like a mount path (/tmp).
  // The entrypoints' own files (node, a package's bin) are the image's, not a volume's: a checkout
  // under /tmp must not have its node rewritten into a pod's /tmp emptyDir (issue 28 item 7).
  function hostPaths(): string[] {
    return [
      ...Object.values(options.claims ?? {}),
      ...Object.values(options.buckets ?? {}),
      ...dirs.map((d) => d.path),
      ...Object.values(options.entrypoints)
        .flat()
        .filter((value) => value.startsWith("/")),
    ];
  }

  async function startPod(
    owner: string,
    namespace: string,
    template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec },
    extraLabels: Record<string, string>,
    fixedName?: string,
  ): Promise<RunningPod> {
    const name = fixedName ?? `${owner.slice(0, 57)}-${randomBytes(3).toString("hex").slice(0, 5)}`;
    const labels = { ...(template.metadata?.labels ?? {}), ...extraLabels };
    const spec = template.spec;
    let log = "";
    const instance = Symbol(name);
    currentPods.set(`${namespace}/${name}`, instance);
    const putPod = (phase: string, containerState: Record<string, unknown>) => {
      // A pod deleted through the API stays deleted, whatever its process does afterwards.
      if (currentPods.get(`${namespace}/${name}`) !== instance) return;
      double.putPod({
        metadata: { name, namespace, labels },
        spec: structuredClone(spec) as unknown as Record<string, unknown>,
        status: {
          phase,
          startTime: new Date().toISOString(),
          containerStatuses: spec.containers.map((c) => ({
            name: c.name,
            image: c.image,
            ready: phase === "Running",
            restartCount: 0,
            state: containerState,
          })),
          // What `kubectl wait --for=condition=Ready` reads.
          conditions: [{ type: "Ready", status: phase === "Running" ? "True" : "False" }],
        },
      });
    };
    putPod("Pending", { waiting: { reason: "ContainerCreating" } });
    const ports: Record<number, number> = {};
    let exited: Promise<number>;
    try {
      // Native sidecars (restartPolicy: Always) are other vendors' agents (the metering sidecar):
      // not run here; a Job that needs one must not be run on this node.
      const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === "Always");
      if (sidecars.length > 0)
        throw new PodStartError(`native sidecar ${sidecars[0]?.name} cannot run on this node`);
      if ((spec.containers ?? []).length !== 1)
        throw new PodStartError("this kubelet runs pods of exactly one container");
      const container = spec.containers[0] as Container;
      const hostDirs = await mountVolumes(spec, namespace);
      const translate = pathTranslator(container, hostDirs, hostPaths());
      const env = Object.fromEntries(
        Object.entries(resolveEnv(container, spec, { namespace, podName: name, dataOf })).map(([k, v]) => [
          k,
          translate(v),
        ]),
      );
      for (const port of container.ports ?? []) {
        ports[port.containerPort] =
          options.hostPorts?.[`${owner}:${port.containerPort}`] ?? (await findFreePort());
        if (env.PORT === String(port.containerPort)) env.PORT = String(ports[port.containerPort]);
      }
      if (spec.automountServiceAccountToken !== false && options.kubeconfig)
        env.KUBECONFIG = options.kubeconfig;
      const argv = argvOf(container, options.entrypoints);
      if (argv === null)
        throw new PodStartError(`image "${container.image}" has no entrypoint on this node (ErrImagePull)`);
      const translatedArgv = argv.map(translate);
      execTargets.set(`${namespace}/${name}`, { translate, env });
      const home = await tempDir("svc-kubelet-home-");
      await mkdir(home, { recursive: true });
      const child = spawn(translatedArgv[0] ?? "", translatedArgv.slice(1), {
        env: { ...(options.baseEnv ?? { PATH: process.env.PATH ?? "" }), HOME: home, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.add(child);
      podChildren.set(`${namespace}/${name}`, child);
      const append = (chunk: Buffer) => {
        log += chunk.toString();
        double.appendPodLog(namespace, name, container.name, chunk.toString());
      };
      child.stdout?.on("data", append);
      child.stderr?.on("data", append);
      putPod("Running", { running: { startedAt: new Date().toISOString() } });
      exited = new Promise<number>((resolve) => {
        child.on("close", (code, signal) => {
          children.delete(child);
          if (currentPods.get(`${namespace}/${name}`) === instance) {
            execTargets.delete(`${namespace}/${name}`);
            podChildren.delete(`${namespace}/${name}`);
          }
          double.endPodLog(namespace, name, container.name);
          const exitCode = code ?? (signal ? 137 : 1);
          putPod(exitCode === 0 ? "Succeeded" : "Failed", {
            terminated: { exitCode, reason: exitCode === 0 ? "Completed" : "Error" },
          });
          resolve(exitCode);
        });
        child.on("error", (error) => {
          log += `${error.message}\n`;
          resolve(127);
        });
      });
    } catch (error) {
      if (!(error instanceof PodStartError)) throw error;
      note(`${namespace}/${name}: ${error.message}`);
      log += `${error.message}\n`;
      const first = spec.containers?.[0]?.name ?? "main";
      double.appendPodLog(namespace, name, first, `${error.message}\n`);
      double.endPodLog(namespace, name, first);
      putPod("Failed", { waiting: { reason: "CreateContainerConfigError", message: error.message } });
      exited = Promise.resolve(128);
    }
    return { name, namespace, ports, exited, logs: () => log };
  }

  function runJob(job: KubeObject): void {
    const namespace = job.metadata?.namespace ?? "default";
    const jobName = job.metadata?.name ?? "";
    const template = (
      job.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } }
    ).template;
    const outcome = (async (): Promise<"Complete" | "Failed"> => {
      const startTime = new Date().toISOString();
      double.setJobStatus(namespace, jobName, { active: 1, startTime });
      const pod = await startPod(jobName, namespace, template, {
        "batch.kubernetes.io/job-name": jobName,
        "job-name": jobName,
      });
      jobPods.set(`${namespace}/${jobName}`, pod);
      const code = await pod.exited;
      const completionTime = new Date().toISOString();
      const complete = code === 0;
      if (double.getJob(namespace, jobName))
        double.setJobStatus(namespace, jobName, {
          startTime,
          ...(complete ? { succeeded: 1, completionTime } : { failed: 1 }),
          conditions: [
            complete
              ? { type: "Complete", status: "True", lastTransitionTime: completionTime }
              : {
                  type: "Failed",
                  status: "True",
                  reason: "BackoffLimitExceeded",
                  message: `exit code ${code}`,
                  lastTransitionTime: completionTime,
                },
          ],
        });
      return complete ? "Complete" : "Failed";
    })();
    jobOutcomes.set(`${namespace}/${jobName}`, outcome);
  }

  // Bare pods created through the API (the operator scripts' helper pods) run like Job pods.
  double.onPodCreated((pod) => {
    const namespace = pod.metadata?.namespace ?? "default";
    const name = pod.metadata?.name ?? "";
    const template = {
      metadata: { labels: pod.metadata?.labels ?? {} },
      spec: pod.spec as unknown as PodSpec,
    };
    void startPod(name, namespace, template, {}, name);
  });
  double.onPodDeleted((namespace, name) => {
    const at = `${namespace}/${name}`;
    currentPods.delete(at);
    execTargets.delete(at);
    podChildren.get(at)?.kill("SIGTERM");
  });
  double.onExec((request) => execInPod(request));

  /**
   * `kubectl exec`: the command runs as a local process in the pod's environment, with every
   * argument under one of its mounts rewritten to the host directory behind it (as its own
   * command line was).
   */
  function execInPod(request: ExecRequest): Promise<ExecResult> {
    const target = execTargets.get(`${request.namespace}/${request.pod}`);
    if (!target)
      return Promise.resolve({
        stdout: Buffer.alloc(0),
        stderr: Buffer.from(
          `error: unable to upgrade connection: container not found ("${request.container}")\n`,
        ),
        exitCode: 1,
      });
    return new Promise((resolve) => {
      const [file, ...args] = request.command.map(target.translate);
      const child = spawn(file ?? "", args, {
        env: { ...(options.baseEnv ?? { PATH: process.env.PATH ?? "" }), ...target.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.stdin.on("error", () => undefined);
      child.stdin.end(request.stdin ?? Buffer.alloc(0));
      child.on("error", (error) =>
        resolve({
          stdout: Buffer.alloc(0),
          stderr: Buffer.from(`OCI runtime exec failed: ${error.message}\n`),
          exitCode: 126,
        }),
      );
      child.on("close", (code) =>
        resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: code ?? 137 }),
      );
    });
  }

  double.onJobStored((job) => {
    // The API server stores first and the kubelet acts after: run outside the request.
    setImmediate(() => runJob(job));
  });

  return {
    events,
    jobLogs: (namespace, name) => jobPods.get(`${namespace}/${name}`)?.logs() ?? "",
    runDeployment: (deployment, namespace) => {
      const template = (
        deployment.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } }
      ).template;
      return startPod(deployment.metadata?.name ?? "deployment", namespace, template, {});
    },
    waitForJob: async (namespace, name, timeoutMs = 300_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!jobOutcomes.has(`${namespace}/${name}`)) {
        if (Date.now() > deadline) throw new Error(`Job ${namespace}/${name} was never started`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const outcome = jobOutcomes.get(`${namespace}/${name}`) as Promise<"Complete" | "Failed">;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Job ${namespace}/${name} did not finish in time`)),
          Math.max(0, deadline - Date.now()),
        );
      });
      try {
        return await Promise.race([outcome, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    stop: async () => {
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once("close", () => resolve());
              child.kill("SIGTERM");
              setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
            }),
        ),
      );
      await Promise.all(jobOutcomes.values()).catch(() => undefined);
      await Promise.all(dirs.map((dir) => dir.remove()));
    },
  };
}
