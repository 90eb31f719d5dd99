import { DATA_MOUNT_PATH, idLabelValue, runnerRootsEnv } from "@svc/core";
import type { PreflightConfig } from "../config.ts";
import {
  restrictedContainerSecurityContext,
  restrictedPodSecurityContext,
  TMP_MOUNT,
  TMP_VOLUME,
} from "./job-security.ts";
import type { ContainerManifest, JobManifest, VolumeManifest } from "./kube-gateway.ts";
import { buildMeteringSidecar } from "./metering-sidecar.ts";

/** A validated pipeline launch (spec §4.2 POST /api/pipeline/run, defaults applied). */
export interface PipelineRunRequest {
  projectId: string;
  namespace: string;
  runId: string;
  moduleId: string;
  mode: "standard" | "deep";
  gpuDocking: boolean;
  /** Pods sharing the run; above 1 the Job is Indexed and each pod gets JOB_COMPLETION_INDEX. */
  shards: number;
}

/** What {@link buildPipelineJob} needs besides the request: the settings spec §4.2 rule 1 requires. */
export interface PipelineJobOptions {
  name: string;
  runnerImage: string;
  runnerImageGpu: string;
  appFullname: string;
  /** PVC mode: the job release's claim (SVC_DATA_CLAIM); unused in cloudstore mode. */
  dataClaim: string;
}

const K8S_TOKEN_DIR = "/var/run/secrets/svc";

// spec §8 profile resources: Standard 2-4 vCPU / 8-16 GiB, Deep 4-8 vCPU / 32-64 GiB.
const PROFILE_RESOURCES = {
  standard: { requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "4", memory: "16Gi" } },
  deep: { requests: { cpu: "4", memory: "32Gi" }, limits: { cpu: "8", memory: "64Gi" } },
} as const;

const CLOUDSTORE_ANNOTATIONS = { "gke-gcsfuse/volumes": "true" };

/** True only for `mode=deep` with `gpuDocking=true` (spec §4.2 rule 2). */
export function wantsGpu(request: Pick<PipelineRunRequest, "mode" | "gpuDocking">): boolean {
  return request.mode === "deep" && request.gpuDocking;
}

/**
 * Labels of a pipeline Job; `svc.run-id` lets operators find the Job of a run. Run and project
 * ids of up to 128 characters do not fit a label value (63): the labels hold their label-safe
 * form and the annotations ({@link pipelineJobAnnotations}) the ids themselves (docs/contracts/run-id.md).
 */
export function pipelineJobLabels(request: PipelineRunRequest, appFullname: string): Record<string, string> {
  return {
    "app.kubernetes.io/name": "svc-runner",
    "app.kubernetes.io/instance": appFullname,
    "app.kubernetes.io/component": "pipeline",
    "app.kubernetes.io/managed-by": "svc-preflight",
    "svc.module": request.moduleId,
    "svc.run-id": idLabelValue(request.runId),
    "svc.project-id": idLabelValue(request.projectId),
    "svc.mode": request.mode,
  };
}

/** Annotations of a pipeline Job: the full run and project ids its labels may only hash. */
export function pipelineJobAnnotations(request: PipelineRunRequest): Record<string, string> {
  return { "svc.run-id": request.runId, "svc.project-id": request.projectId };
}

/**
 * The pipeline Job: the runner with project, run id, mode and module in its environment, the data
 * volume of the storage layout (the job release's claim at /data, or the bucket), the runner service account, and a GPU (limit,
 * toleration, node selector, GPU-tagged image) only for deep + gpuDocking.
 */
export function buildPipelineJob(
  config: PreflightConfig,
  request: PipelineRunRequest,
  options: PipelineJobOptions,
): JobManifest {
  const gpu = wantsGpu(request);
  const image = gpu ? options.runnerImageGpu : options.runnerImage;
  const labels = pipelineJobLabels(request, options.appFullname);
  const passThrough = config.runnerPassThroughEnv;
  const env: { name: string; value: string }[] = [
    { name: "SVC_PROJECT_ID", value: request.projectId },
    { name: "SVC_RUN_ID", value: request.runId },
    { name: "SVC_RUN_MODE", value: request.mode },
    { name: "SVC_MODULE_ID", value: request.moduleId },
    // docs/contracts/storage-layout.md: the Job sees the data volume where this service does.
    ...Object.entries(runnerRootsEnv(config.layout, request.projectId)).map(([name, value]) => ({
      name,
      value,
    })),
    { name: "SVC_IMAGE_REFERENCE", value: image },
    ...(request.shards > 1 ? [{ name: "SVC_SHARDS", value: String(request.shards) }] : []),
    ...Object.entries(passThrough).map(([name, value]) => ({ name, value })),
  ];
  const layout = config.layout;
  const volumes: VolumeManifest[] = [
    layout.kind === "cloudstore"
      ? {
          name: "data",
          csi: {
            driver: "gcsfuse.csi.storage.gke.io",
            volumeAttributes: { bucketName: layout.bucket, mountOptions: config.cloudstoreMountOptions },
          },
        }
      : { name: "data", persistentVolumeClaim: { claimName: options.dataClaim } },
    TMP_VOLUME,
  ];
  const volumeMounts: NonNullable<ContainerManifest["volumeMounts"]> = [
    { name: "data", mountPath: layout.kind === "cloudstore" ? layout.mountPath : DATA_MOUNT_PATH },
    TMP_MOUNT,
  ];
  // docs/contracts/runner-env.md k8s auth mode: the runner reads a projected service account token whose
  // audience is the entitlement service.
  const audience = passThrough.SVC_ENTITLEMENT_AUDIENCE ?? passThrough.SVC_ENTITLEMENT_URL;
  if (passThrough.SVC_ENTITLEMENT_AUTH_MODE === "k8s" && audience !== undefined) {
    volumes.push({
      name: "svc-token",
      projected: { sources: [{ serviceAccountToken: { audience, expirationSeconds: 3600, path: "token" } }] },
    });
    volumeMounts.push({ name: "svc-token", mountPath: K8S_TOKEN_DIR, readOnly: true });
    env.push({ name: "SVC_K8S_TOKEN_FILE", value: `${K8S_TOKEN_DIR}/token` });
  }
  // A ReadWriteOnce claim attaches to one node: the Job must run where the claim's holder runs
  // (docs/contracts/storage-layout.md "ReadWriteOnce").
  const coLocate =
    Object.keys(config.coLocateWith).length > 0 && config.ownNamespace !== null
      ? {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { ...config.coLocateWith } },
                namespaces: [config.ownNamespace],
                topologyKey: "kubernetes.io/hostname",
              },
            ],
          },
        }
      : undefined;
  // Chart billing.enabled: the runner reports usage to the metering agent beside it (spec §2.7).
  const metering = config.metering === null ? null : buildMeteringSidecar(config.metering);
  if (metering !== null) {
    env.push({ name: "SVC_METERING_URL", value: metering.meteringUrl });
    volumes.push(...metering.volumes);
  }
  const profile = PROFILE_RESOURCES[request.mode];
  const container: ContainerManifest = {
    name: "runner",
    image,
    command: [...config.runnerCommand],
    env,
    volumeMounts,
    resources: {
      requests: { ...profile.requests },
      limits: { ...profile.limits, ...(gpu ? { "nvidia.com/gpu": "1" } : {}) },
    },
    securityContext: restrictedContainerSecurityContext(),
  };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: options.name,
      namespace: request.namespace,
      labels,
      annotations: pipelineJobAnnotations(request),
    },
    spec: {
      backoffLimit: config.pipelineBackoffLimit,
      ...(config.pipelineDeadlineSeconds !== null
        ? { activeDeadlineSeconds: config.pipelineDeadlineSeconds }
        : {}),
      ttlSecondsAfterFinished: config.jobTtlSeconds,
      ...(request.shards > 1
        ? { completionMode: "Indexed" as const, completions: request.shards, parallelism: request.shards }
        : {}),
      template: {
        // The GCS FUSE CSI driver injects its sidecar only into annotated pods.
        metadata: {
          labels,
          ...(layout.kind === "cloudstore" ? { annotations: CLOUDSTORE_ANNOTATIONS } : {}),
        },
        spec: {
          restartPolicy: "Never",
          ...(config.runnerServiceAccount ? { serviceAccountName: config.runnerServiceAccount } : {}),
          automountServiceAccountToken: false,
          securityContext: restrictedPodSecurityContext(config.runAsUser, true),
          ...(metering !== null ? { initContainers: [metering.sidecar] } : {}),
          containers: [container],
          volumes,
          ...(gpu && Object.keys(config.gpuNodeSelector).length > 0
            ? { nodeSelector: { ...config.gpuNodeSelector } }
            : {}),
          ...(coLocate ? { affinity: coLocate } : {}),
          ...(gpu
            ? { tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }] }
            : {}),
        },
      },
    },
  };
}
