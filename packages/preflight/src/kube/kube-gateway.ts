import type { Readable } from "node:stream";

/** A container of a Job's pod template, as the service builds it. */
export interface ContainerManifest {
  name: string;
  image: string;
  imagePullPolicy?: string;
  command: string[];
  args?: string[];
  env?: { name: string; value: string }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
}

/**
 * The metering agent, a native sidecar (restartPolicy Always) of a pipeline Job: its settings come
 * from the reporting secret, so its env takes secret references.
 */
export interface SidecarManifest {
  name: string;
  image: string;
  restartPolicy: "Always";
  env: (
    | { name: string; value: string }
    | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } }
  )[];
  ports: { name: string; containerPort: number; protocol: "TCP" }[];
  startupProbe: { httpGet: { path: string; port: string }; periodSeconds: number; failureThreshold: number };
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
}

/** A pod volume: the data claim, a scratch emptyDir or a projected service account token. */
export type VolumeManifest =
  | { name: string; persistentVolumeClaim: { claimName: string } }
  | { name: string; emptyDir: { sizeLimit?: string } }
  | {
      name: string;
      csi: { driver: string; volumeAttributes: Record<string, string> };
    }
  | { name: string; configMap: { name: string } }
  | {
      name: string;
      projected: {
        sources: { serviceAccountToken: { audience: string; expirationSeconds: number; path: string } }[];
      };
    };

/** A required pod-affinity term: schedule on the same `topologyKey` domain as the matching pods. */
export interface PodAffinityTerm {
  labelSelector: { matchLabels: Record<string, string> };
  namespaces?: string[];
  topologyKey: string;
}

/** A batch/v1 Job as the service builds it (a subset of the Kubernetes schema). */
export interface JobManifest {
  apiVersion: "batch/v1";
  kind: "Job";
  metadata: {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: {
    backoffLimit: number;
    activeDeadlineSeconds?: number;
    ttlSecondsAfterFinished: number;
    completionMode?: "Indexed";
    completions?: number;
    parallelism?: number;
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        restartPolicy: "Never";
        serviceAccountName?: string;
        automountServiceAccountToken?: boolean;
        securityContext: Record<string, unknown>;
        initContainers?: SidecarManifest[];
        containers: ContainerManifest[];
        volumes?: VolumeManifest[];
        nodeSelector?: Record<string, string>;
        tolerations?: { key: string; operator: string; effect: string }[];
        affinity?: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: PodAffinityTerm[] } };
      };
    };
  };
}

/** A Job condition (Complete, Failed, Suspended, ...). */
export interface JobCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** What the service reads back about a Job. */
export interface JobSummary {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  creationTimestamp: string | null;
  startTime: string | null;
  completionTime: string | null;
  active: number;
  ready: number;
  succeeded: number;
  failed: number;
  conditions: JobCondition[];
}

/** One container of a pod, as the pod listing reports it. */
export interface ContainerSummary {
  name: string;
  image: string;
  ready: boolean;
  restarts: number;
  /** `waiting`, `running`, `terminated` or `unknown`, with the reason Kubernetes gives. */
  state: {
    kind: "waiting" | "running" | "terminated" | "unknown";
    reason?: string;
    exitCode?: number;
    since?: string;
  };
}

/** What the service reads back about a Pod. */
export interface PodSummary {
  name: string;
  phase: string;
  startTime: string | null;
  labels: Record<string, string>;
  containers: ContainerSummary[];
}

/** What {@link KubeGateway.readPodLog} reads: one container's log, optionally followed. */
export interface PodLogRequest {
  namespace: string;
  pod: string;
  container: string;
  /** Keep the stream open while the container runs (Kubernetes `follow=true`). */
  follow: boolean;
  /** Only the last N lines. */
  tailLines?: number;
}

/**
 * The Kubernetes calls the preflight service makes (ARCHITECTURE.md convention 3). Failures are
 * thrown as `PreflightError` with a `KUBE_*` code mapped from the API status (403, 404, 409, 422).
 */
export interface KubeGateway {
  /** True when the client uses the pod's service account. */
  readonly inCluster: boolean;
  /** Context names of the loaded kubeconfig (in-cluster: the one synthetic context). */
  listContexts(): string[];
  createJob(job: JobManifest): Promise<JobSummary>;
  listJobs(namespace: string, labelSelector: string): Promise<JobSummary[]>;
  /** Deletes with `propagationPolicy: Background` so the Job's pods go too. */
  deleteJob(namespace: string, name: string): Promise<void>;
  listPods(namespace: string, labelSelector: string | undefined, context?: string): Promise<PodSummary[]>;
  /**
   * Streams a container's log (`pods/log`). The stream ends when the log does (with `follow`,
   * when the container terminates); destroying it cancels the request.
   */
  readPodLog(request: PodLogRequest): Promise<Readable>;
}
