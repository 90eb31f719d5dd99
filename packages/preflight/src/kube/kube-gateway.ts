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

/** A pod volume: the data claim, a scratch emptyDir or a projected service account token. */
export type VolumeManifest =
  | { name: string; persistentVolumeClaim: { claimName: string } }
  | { name: string; emptyDir: { sizeLimit?: string } }
  | {
      name: string;
      projected: {
        sources: { serviceAccountToken: { audience: string; expirationSeconds: number; path: string } }[];
      };
    };

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
      metadata: { labels: Record<string, string> };
      spec: {
        restartPolicy: "Never";
        serviceAccountName?: string;
        automountServiceAccountToken?: boolean;
        securityContext: Record<string, unknown>;
        containers: ContainerManifest[];
        volumes?: VolumeManifest[];
        nodeSelector?: Record<string, string>;
        tolerations?: { key: string; operator: string; effect: string }[];
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
}
