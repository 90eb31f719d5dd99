import { join } from "node:path";
import { DATA_MOUNT_PATH, recordEnvReads, type StorageLayout } from "@svc/core";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "@svc/http-edge";
import { DNS1123_LABEL, DNS1123_SUBDOMAIN, isLabelKey, isLabelValue } from "./kube/label-syntax.ts";

/** Where the Kubernetes client configuration comes from. */
export type KubeSource =
  | { mode: "in-cluster" }
  | { mode: "kubeconfig"; path: string }
  | { mode: "none"; reason: string };

/** The preflight service's validated, frozen configuration (README "Configuration"). */
export interface PreflightConfig {
  readonly port: number;
  readonly host: string;
  /** pino level of the service log (LOG_LEVEL). */
  readonly logLevel: LogLevel;
  readonly version: string;
  /** PVC output root (SVC_OUTPUT_ROOT); in cloudstore mode runs live under `<bucket>/<project>/results`. */
  readonly outputRoot: string;
  readonly storageMode: "pvc" | "cloudstore";
  /** Where inputs and runs live, for this service and the Jobs it launches (docs/contracts/storage-layout.md). */
  readonly layout: StorageLayout;
  /** PVC mode: the job release's claim `<job-release>-data` that launched Jobs mount; null = not configured. */
  readonly dataClaim: string | null;
  /** Cloudstore mode: GCS FUSE mount options of launched Jobs' bucket volume. */
  readonly cloudstoreMountOptions: string;
  /**
   * Labels of the pod launched Jobs must share a node with (a ReadWriteOnce claim attaches to one
   * node); empty = no co-location (ReadWriteMany claim or cloudstore).
   */
  readonly coLocateWith: Readonly<Record<string, string>>;
  /** Metering of launched Jobs (chart `billing.*`): the agent they run as a sidecar; null = off. */
  readonly metering: MeteringSidecarConfig | null;
  readonly runnerImage: string | null;
  /** GPU-tagged runner image; null when it cannot be derived (image pinned by digest) nor was given. */
  readonly runnerImageGpu: string | null;
  /** argv prefix that starts the runner CLI inside the runner image. */
  readonly runnerCommand: readonly string[];
  readonly runnerServiceAccount: string | null;
  readonly appFullname: string | null;
  readonly authDisabled: boolean;
  /** Accepted bearer tokens. Never logged, never served. */
  readonly authTokens: readonly string[];
  readonly ownNamespace: string | null;
  readonly allowedNamespaces: readonly string[];
  readonly gpuNodeSelector: Readonly<Record<string, string>>;
  readonly smokeDeadlineSeconds: number;
  readonly jobTtlSeconds: number;
  readonly pipelineBackoffLimit: number;
  readonly pipelineDeadlineSeconds: number | null;
  readonly runAsUser: number;
  /** Entitlement and cloud settings passed through to launched pipeline Jobs (docs/contracts/runner-env.md). */
  readonly runnerPassThroughEnv: Readonly<Record<string, string>>;
  readonly kube: KubeSource;
}

/** The metering agent of launched Jobs (the job chart's `ubbagent` sidecar, spec §2.7). */
export interface MeteringSidecarConfig {
  readonly image: string;
  /** Secret with keys consumer-id, entitlement-id, reporting-key. */
  readonly reportingSecret: string;
  /** ConfigMap with the agent's config.yaml (the job release's `<release>-ubbagent`). */
  readonly configMap: string;
  readonly port: number;
}

/** Start-up refused: every configuration problem, listed together. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: string[]) {
    super(`invalid preflight configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** What {@link loadConfig} may read besides the environment (injected so tests use temp dirs). */
export interface ConfigProbe {
  fileExists(path: string): boolean;
  readTextFile(path: string): string | undefined;
  homeDir: string | undefined;
}

/** The in-cluster service account directory, as client-node and kubelet use it. */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/** Settings forwarded verbatim to pipeline Jobs when set (docs/contracts/runner-env.md "Preflight-launched pipeline Job"). */
export const PASS_THROUGH_ENV = [
  "SVC_ENTITLEMENT_URL",
  "SVC_ENTITLEMENT_AUTH_MODE",
  "SVC_ENTITLEMENT_AUDIENCE",
  "SVC_ENTITLEMENT_TIMEOUT_SEC",
  "SVC_CLOUD_REGION",
  "SVC_CLOUD_LOCATION",
] as const;

const MIN_TOKEN_LENGTH = 16;

/** Derives the GPU-tagged image from the runner image: same repository, tag + "-gpu" (spec §9 rule 1). */
export function deriveGpuImage(image: string): string | null {
  if (image.includes("@")) return null; // a digest names exactly one image; the GPU one must be given
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash ? `${image}-gpu` : `${image}:latest-gpu`;
}

/**
 * Reads and validates the environment once (ARCHITECTURE.md convention 4): every problem is
 * collected and thrown together as a {@link ConfigError}; the result is frozen.
 */
export function loadConfig(env: NodeJS.ProcessEnv, probe: ConfigProbe, version = "0.0.0"): PreflightConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined || raw === "false" || raw === "0" || raw === "no") return false;
    if (raw === "true" || raw === "1" || raw === "yes") return true;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return false;
  };

  const port = integer("PORT", 8080, 0, 65535);
  const host = text("HOST") ?? "0.0.0.0";
  const logLevelText = text("LOG_LEVEL") ?? "info";
  const logLevel: LogLevel = isLogLevel(logLevelText) ? logLevelText : "info";
  if (!isLogLevel(logLevelText))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${logLevelText}")`);
  const outputRoot = text("SVC_OUTPUT_ROOT") ?? "/data/output";
  if (!outputRoot.startsWith("/"))
    problems.push(`SVC_OUTPUT_ROOT must be an absolute path (got "${outputRoot}")`);

  const inputRoot = text("SVC_INPUT_ROOT") ?? `${DATA_MOUNT_PATH}/input`;
  if (!inputRoot.startsWith("/"))
    problems.push(`SVC_INPUT_ROOT must be an absolute path (got "${inputRoot}")`);

  const storageRaw = text("SVC_STORAGE_MODE") ?? "pvc";
  if (storageRaw !== "pvc" && storageRaw !== "cloudstore")
    problems.push(`SVC_STORAGE_MODE must be pvc or cloudstore (got "${storageRaw}")`);
  const storageMode = storageRaw === "cloudstore" ? "cloudstore" : "pvc";
  const bucket = text("SVC_CLOUDSTORE_BUCKET");
  const mountPath = text("SVC_CLOUDSTORE_MOUNT_PATH") ?? DATA_MOUNT_PATH;
  if (storageMode === "cloudstore" && bucket === undefined)
    problems.push("SVC_CLOUDSTORE_BUCKET is required when SVC_STORAGE_MODE=cloudstore");
  if (!mountPath.startsWith("/"))
    problems.push(`SVC_CLOUDSTORE_MOUNT_PATH must be an absolute path (got "${mountPath}")`);
  const layout: StorageLayout =
    storageMode === "cloudstore"
      ? { kind: "cloudstore", bucket: bucket ?? "", mountPath }
      : { kind: "pvc", inputRoot, outputRoot };
  const cloudstoreMountOptions = text("SVC_CLOUDSTORE_MOUNT_OPTIONS") ?? "implicit-dirs,uid=10001,gid=10001";
  const dataClaim = text("SVC_DATA_CLAIM") ?? null;
  if (dataClaim !== null && !DNS1123_SUBDOMAIN.test(dataClaim))
    problems.push(`SVC_DATA_CLAIM must be a DNS-1123 name (got "${dataClaim}")`);
  const coLocateWith = readLabelPairs("SVC_CO_LOCATE_WITH", text("SVC_CO_LOCATE_WITH"), problems);

  const runnerImage = text("SVC_RUNNER_IMAGE") ?? null;
  if (runnerImage !== null && /\s/.test(runnerImage))
    problems.push("SVC_RUNNER_IMAGE must not contain whitespace");
  const runnerImageGpu = text("SVC_RUNNER_IMAGE_GPU") ?? (runnerImage ? deriveGpuImage(runnerImage) : null);

  let runnerCommand: string[] = ["svc-runner"];
  const commandRaw = text("SVC_RUNNER_COMMAND");
  if (commandRaw !== undefined) {
    try {
      const parsed: unknown = commandRaw.startsWith("[") ? JSON.parse(commandRaw) : commandRaw.split(/\s+/);
      if (
        !Array.isArray(parsed) ||
        parsed.length === 0 ||
        !parsed.every((part) => typeof part === "string" && part)
      )
        throw new Error("not a non-empty list of strings");
      runnerCommand = parsed as string[];
    } catch {
      problems.push("SVC_RUNNER_COMMAND must be a JSON array of strings or a space-separated command");
    }
  }

  const runnerServiceAccount = text("SVC_RUNNER_SERVICE_ACCOUNT") ?? null;
  if (runnerServiceAccount !== null && !DNS1123_SUBDOMAIN.test(runnerServiceAccount))
    problems.push(`SVC_RUNNER_SERVICE_ACCOUNT must be a DNS-1123 name (got "${runnerServiceAccount}")`);
  const appFullname = text("SVC_APP_FULLNAME") ?? null;
  // The claim `<fullname>-data` must itself be a valid object name.
  if (appFullname !== null && (appFullname.length > 58 || !DNS1123_LABEL.test(appFullname)))
    problems.push(
      `SVC_APP_FULLNAME must be a DNS-1123 label of at most 58 characters (got "${appFullname}")`,
    );

  // spec §5.2: bearer tokens; every K8S_API_TOKENS entry is accepted so tokens can be rotated.
  const authDisabled = bool("SVC_AUTH_DISABLED");
  const authTokens: string[] = [];
  const tokensRaw = text("K8S_API_TOKENS");
  if (tokensRaw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tokensRaw);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) {
      problems.push('K8S_API_TOKENS must be a JSON array of objects like [{"token":"..."}]');
    } else {
      parsed.forEach((entry: unknown, index) => {
        const token = (entry as { token?: unknown } | null)?.token;
        if (typeof token !== "string" || token.trim().length < MIN_TOKEN_LENGTH)
          problems.push(
            `K8S_API_TOKENS[${index}].token must be a string of at least ${MIN_TOKEN_LENGTH} characters`,
          );
        else authTokens.push(token.trim());
      });
    }
  }
  const explicitToken = text("SVC_API_TOKEN");
  if (explicitToken !== undefined) {
    if (explicitToken.length < MIN_TOKEN_LENGTH)
      problems.push(`SVC_API_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
    else authTokens.push(explicitToken);
  }
  if (!authDisabled && authTokens.length === 0 && !problems.some((problem) => problem.includes("TOKEN")))
    problems.push(
      "auth is enabled but no token is configured: set K8S_API_TOKENS or SVC_API_TOKEN, or SVC_AUTH_DISABLED=true to run without auth",
    );

  const ownNamespace =
    text("POD_NAMESPACE") ?? probe.readTextFile(join(SERVICE_ACCOUNT_DIR, "namespace"))?.trim() ?? null;
  if (ownNamespace !== null && !DNS1123_LABEL.test(ownNamespace))
    problems.push(`POD_NAMESPACE must be a DNS-1123 label (got "${ownNamespace}")`);
  const allowedRaw = text("SVC_ALLOWED_NAMESPACES");
  const allowedNamespaces =
    allowedRaw === undefined
      ? ownNamespace !== null && ownNamespace !== ""
        ? [ownNamespace]
        : []
      : allowedRaw
          .split(",")
          .map((namespace) => namespace.trim())
          .filter((namespace) => namespace !== "");
  for (const namespace of allowedNamespaces) {
    if (!DNS1123_LABEL.test(namespace))
      problems.push(`SVC_ALLOWED_NAMESPACES entry "${namespace}" is not a DNS-1123 label`);
  }

  const gpuNodeSelector = readLabelPairs("SVC_GPU_NODE_SELECTOR", text("SVC_GPU_NODE_SELECTOR"), problems);

  const metering = readMetering(text, integer, problems);

  const smokeDeadlineSeconds = integer("SVC_SMOKE_DEADLINE_SEC", 300, 10, 86400);
  const jobTtlSeconds = integer("SVC_JOB_TTL_SEC", 86400, 0, 30 * 86400);
  const pipelineBackoffLimit = integer("SVC_PIPELINE_BACKOFF_LIMIT", 0, 0, 10);
  const deadlineRaw = text("SVC_PIPELINE_DEADLINE_SEC");
  const pipelineDeadlineSeconds =
    deadlineRaw === undefined ? null : integer("SVC_PIPELINE_DEADLINE_SEC", 0, 60, 7 * 86400);
  const runAsUser = integer("SVC_RUNNER_RUN_AS_USER", 10001, 1, 2147483647);

  const runnerPassThroughEnv: Record<string, string> = {};
  for (const name of PASS_THROUGH_ENV) {
    const value = text(name);
    if (value !== undefined) runnerPassThroughEnv[name] = value;
  }
  // A launched Job has no dev token to present: only the two identity-backed modes work there.
  const authMode = runnerPassThroughEnv.SVC_ENTITLEMENT_AUTH_MODE;
  if (authMode !== undefined && authMode !== "cloud" && authMode !== "k8s")
    problems.push(`SVC_ENTITLEMENT_AUTH_MODE must be cloud or k8s for launched Jobs (got "${authMode}")`);

  const kube = detectKubeSource(env, probe, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    logLevel,
    version,
    outputRoot,
    storageMode,
    layout: Object.freeze(layout),
    dataClaim,
    cloudstoreMountOptions,
    coLocateWith: Object.freeze(coLocateWith),
    metering: metering === null ? null : Object.freeze(metering),
    runnerImage,
    runnerImageGpu,
    runnerCommand: Object.freeze(runnerCommand),
    runnerServiceAccount,
    appFullname,
    authDisabled,
    authTokens: Object.freeze(authTokens),
    ownNamespace,
    allowedNamespaces: Object.freeze(allowedNamespaces),
    gpuNodeSelector: Object.freeze(gpuNodeSelector),
    smokeDeadlineSeconds,
    jobTtlSeconds,
    pipelineBackoffLimit,
    pipelineDeadlineSeconds,
    runAsUser,
    runnerPassThroughEnv: Object.freeze(runnerPassThroughEnv),
    kube: Object.freeze(kube),
  });
}

// Metering of launched Jobs: on when the agent image is set; then the secret and config map are
// required, and the image must be pinned (spec §9 rule 2), as the job chart requires of its sidecar.
function readMetering(
  text: (name: string) => string | undefined,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): MeteringSidecarConfig | null {
  const image = text("SVC_METERING_AGENT_IMAGE");
  const reportingSecret = text("SVC_METERING_REPORTING_SECRET");
  const configMap = text("SVC_METERING_CONFIG_MAP");
  const port = integer("SVC_METERING_PORT", 4567, 1, 65535);
  if (image === undefined) return null;
  if (!/@sha256:[0-9a-f]{64}$/.test(image) && !/:[^/:@]+$/.test(image))
    problems.push(`SVC_METERING_AGENT_IMAGE must be pinned by digest or a version tag (got "${image}")`);
  else if (image.endsWith(":latest")) problems.push("SVC_METERING_AGENT_IMAGE must not use the tag latest");
  for (const [name, value] of [
    ["SVC_METERING_REPORTING_SECRET", reportingSecret],
    ["SVC_METERING_CONFIG_MAP", configMap],
  ] as const)
    if (value === undefined) problems.push(`${name} is required when SVC_METERING_AGENT_IMAGE is set`);
    else if (!DNS1123_SUBDOMAIN.test(value))
      problems.push(`${name} must be a DNS-1123 name (got "${value}")`);
  return { image, reportingSecret: reportingSecret ?? "", configMap: configMap ?? "", port };
}

// `key=value,key=value` with valid label keys and values (a node selector, a pod label selector).
function readLabelPairs(name: string, raw: string | undefined, problems: string[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of raw?.split(",") ?? []) {
    const [key = "", value = "", ...rest] = pair.trim().split("=");
    if (!pair.includes("=") || rest.length > 0 || !isLabelKey(key) || !isLabelValue(value))
      problems.push(`${name} entry "${pair.trim()}" must be key=value with a valid label key and value`);
    else pairs[key] = value;
  }
  return pairs;
}

// In-cluster when the kubelet injected the service host and the service account token (what
// client-node's loadFromCluster needs); otherwise KUBECONFIG or ~/.kube/config; otherwise none.
function detectKubeSource(env: NodeJS.ProcessEnv, probe: ConfigProbe, problems: string[]): KubeSource {
  if (env.KUBERNETES_SERVICE_HOST && probe.fileExists(join(SERVICE_ACCOUNT_DIR, "token")))
    return { mode: "in-cluster" };
  const explicit = env.KUBECONFIG?.trim();
  if (explicit) {
    const existing = explicit.split(":").find((path) => path !== "" && probe.fileExists(path));
    if (existing === undefined) {
      problems.push(`KUBECONFIG names no existing file (got "${explicit}")`);
      return { mode: "none", reason: "KUBECONFIG names no existing file" };
    }
    return { mode: "kubeconfig", path: existing };
  }
  const home = probe.homeDir ? join(probe.homeDir, ".kube", "config") : undefined;
  if (home !== undefined && probe.fileExists(home)) return { mode: "kubeconfig", path: home };
  return { mode: "none", reason: "no in-cluster service account and no kubeconfig" };
}

/** Every environment variable {@link loadConfig} reads, recorded from the function itself (chart contract test). */
export const PREFLIGHT_ENV_NAMES: readonly string[] = recordEnvReads((env) =>
  loadConfig(env, { fileExists: () => false, readTextFile: () => undefined, homeDir: undefined }),
);
