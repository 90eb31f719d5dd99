import { join } from "node:path";
import {
  ConfigProblemsError,
  createEnvReader,
  DATA_MOUNT_PATH,
  type EnvReader,
  recordEnvReads,
  type StorageLayout,
} from "@svc/core";
import { LOG_LEVELS, type LogLevel, REQUEST_TIMEOUT_BOUNDS } from "@svc/http-edge";
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
  /** The longest any request may take to arrive, headers and body (SVC_REQUEST_TIMEOUT_MS; issue 38 item 4). */
  readonly requestTimeoutMs: number;
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

/** Start-up refused: every configuration problem, listed together (core's one shape). */
export class ConfigError extends ConfigProblemsError {
  constructor(problems: readonly string[], options?: ErrorOptions) {
    super("preflight", problems, options);
  }
}

/** What {@link loadConfig} may read besides the environment (injected so tests use temp dirs). */
export interface ConfigProbe {
  fileExists(path: string): boolean;
  readTextFile(path: string): string | undefined;
  /** The account's home when HOME is unset (os.homedir()). */
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
  "SVC_DOCKING_MAX_COMPOUNDS",
] as const;

/**
 * The runner's docking cap (compounds docked per structure), checked here with the runner's bounds
 * before a Job is launched with it; test/charts/config-contract.e2e.test.ts compares them.
 */
export const DOCKING_MAX_COMPOUNDS_BOUNDS = Object.freeze({ min: 0, max: 1000 });

const MIN_TOKEN_LENGTH = 16;

/** Derives the GPU-tagged image from the runner image: same repository, tag + "-gpu" (spec §9 rule 1). */
export function deriveGpuImage(image: string): string | null {
  if (image.includes("@")) return null; // a digest names exactly one image; the GPU one must be given
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash ? `${image}-gpu` : `${image}:latest-gpu`;
}

const isDnsName = (name: string) => DNS1123_SUBDOMAIN.test(name);
const isDnsLabel = (name: string) => DNS1123_LABEL.test(name);
const DNS_NAME = "a DNS-1123 name";
const DNS_LABEL = "a DNS-1123 label";
const LABEL_PAIRS = "key=value pairs with a valid label key and value";
/** A launched Job has no dev token to present: only the two identity-backed modes work there. */
const LAUNCHED_AUTH_MODE = {
  check: (mode: string) => mode === "cloud" || mode === "k8s",
  expected: "cloud or k8s for launched Jobs",
};

/**
 * Reads and validates the environment once with core's one reader (ARCHITECTURE.md convention 4):
 * every problem is collected and thrown together as a {@link ConfigError}; the result is frozen.
 */
export function loadConfig(env: NodeJS.ProcessEnv, probe: ConfigProbe, version = "0.0.0"): PreflightConfig {
  const read = createEnvReader(env);
  const outputRoot = read.path("SVC_OUTPUT_ROOT", { fallback: "/data/output", absolute: true });
  const inputRoot = read.path("SVC_INPUT_ROOT", { fallback: `${DATA_MOUNT_PATH}/input`, absolute: true });
  const storageMode = read.oneOf("SVC_STORAGE_MODE", ["pvc", "cloudstore"] as const, { fallback: "pvc" });
  const bucket = read.string("SVC_CLOUDSTORE_BUCKET", {
    required: storageMode === "cloudstore" ? "when SVC_STORAGE_MODE=cloudstore" : undefined,
    expected: "a bucket name",
  });
  const mountPath = read.path("SVC_CLOUDSTORE_MOUNT_PATH", { fallback: DATA_MOUNT_PATH, absolute: true });
  const layout: StorageLayout =
    storageMode === "cloudstore"
      ? { kind: "cloudstore", bucket: bucket ?? "", mountPath }
      : { kind: "pvc", inputRoot, outputRoot };

  const runnerImage =
    read.string("SVC_RUNNER_IMAGE", {
      check: (image) => !/\s/.test(image),
      expected: "an image without whitespace",
    }) ?? null;
  const runnerImageGpu =
    read.string("SVC_RUNNER_IMAGE_GPU") ?? (runnerImage ? deriveGpuImage(runnerImage) : null);
  const authDisabled = read.bool("SVC_AUTH_DISABLED");
  const authTokens = readAuthTokens(read, authDisabled);
  const ownNamespace = readOwnNamespace(read, probe);
  const allowedNamespaces = read.list("SVC_ALLOWED_NAMESPACES", {
    fallback: ownNamespace !== null ? [ownNamespace] : [],
    each: isDnsLabel,
    expected: "DNS-1123 labels",
  });
  const runnerPassThroughEnv: Record<string, string> = {};
  for (const name of PASS_THROUGH_ENV) {
    const value =
      name === "SVC_DOCKING_MAX_COMPOUNDS"
        ? read.int(name, DOCKING_MAX_COMPOUNDS_BOUNDS)?.toString()
        : read.string(name, name === "SVC_ENTITLEMENT_AUTH_MODE" ? LAUNCHED_AUTH_MODE : {});
    if (value !== undefined) runnerPassThroughEnv[name] = value;
  }
  const result = read.finish<PreflightConfig>({
    port: read.int("PORT", { fallback: 8080, min: 0, max: 65535 }),
    host: read.string("HOST", { fallback: "0.0.0.0" }),
    logLevel: read.oneOf("LOG_LEVEL", LOG_LEVELS, { fallback: "info" }),
    requestTimeoutMs: read.int("SVC_REQUEST_TIMEOUT_MS", REQUEST_TIMEOUT_BOUNDS),
    version,
    outputRoot,
    storageMode,
    layout,
    dataClaim: read.string("SVC_DATA_CLAIM", { check: isDnsName, expected: DNS_NAME }) ?? null,
    cloudstoreMountOptions: read.string("SVC_CLOUDSTORE_MOUNT_OPTIONS", {
      fallback: "implicit-dirs,uid=10001,gid=10001",
    }),
    coLocateWith: labelPairs(
      read.list("SVC_CO_LOCATE_WITH", { fallback: [], each: isLabelPair, expected: LABEL_PAIRS }),
    ),
    metering: readMetering(read),
    runnerImage,
    runnerImageGpu,
    runnerCommand: readRunnerCommand(read),
    runnerServiceAccount:
      read.string("SVC_RUNNER_SERVICE_ACCOUNT", { check: isDnsName, expected: DNS_NAME }) ?? null,
    // The claim `<fullname>-data` must itself be a valid object name.
    appFullname:
      read.string("SVC_APP_FULLNAME", {
        check: (name) => name.length <= 58 && isDnsLabel(name),
        expected: "a DNS-1123 label of at most 58 characters",
      }) ?? null,
    authDisabled,
    authTokens,
    ownNamespace,
    allowedNamespaces,
    gpuNodeSelector: labelPairs(
      read.list("SVC_GPU_NODE_SELECTOR", { fallback: [], each: isLabelPair, expected: LABEL_PAIRS }),
    ),
    smokeDeadlineSeconds: read.int("SVC_SMOKE_DEADLINE_SEC", { fallback: 300, min: 10, max: 86400 }),
    jobTtlSeconds: read.int("SVC_JOB_TTL_SEC", { fallback: 86400, min: 0, max: 30 * 86400 }),
    pipelineBackoffLimit: read.int("SVC_PIPELINE_BACKOFF_LIMIT", { fallback: 0, min: 0, max: 10 }),
    pipelineDeadlineSeconds: read.int("SVC_PIPELINE_DEADLINE_SEC", { min: 60, max: 7 * 86400 }) ?? null,
    runAsUser: read.int("SVC_RUNNER_RUN_AS_USER", { fallback: 10001, min: 1, max: 2147483647 }),
    runnerPassThroughEnv,
    kube: detectKubeSource(read, probe),
  });
  if (!result.ok) throw new ConfigError(result.problems);
  return result.config;
}

// spec §5.2: bearer tokens; every K8S_API_TOKENS entry is accepted so tokens can be rotated.
// Problems give a token's length, never its value.
function readAuthTokens(read: EnvReader, authDisabled: boolean): string[] {
  const tokens: string[] = [];
  const listed = read.string("K8S_API_TOKENS");
  if (listed !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(listed);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed))
      read.problem("K8S_API_TOKENS", 'a JSON array of objects like [{"token":"..."}]', listed, true);
    else
      parsed.forEach((entry: unknown, index) => {
        const token = (entry as { token?: unknown } | null)?.token;
        if (typeof token === "string" && token.trim().length >= MIN_TOKEN_LENGTH) tokens.push(token.trim());
        else
          read.problem(
            `K8S_API_TOKENS[${index}].token`,
            `a string of at least ${MIN_TOKEN_LENGTH} characters`,
            typeof token === "string" ? token.trim() : undefined,
            true,
          );
      });
  }
  const single = read.string("SVC_API_TOKEN", {
    check: (token) => token.length >= MIN_TOKEN_LENGTH,
    expected: `at least ${MIN_TOKEN_LENGTH} characters`,
    secret: true,
  });
  if (single !== undefined) tokens.push(single);
  if (!authDisabled && tokens.length === 0 && !read.problems.some((problem) => problem.includes("TOKEN")))
    read.problem(
      "K8S_API_TOKENS or SVC_API_TOKEN",
      "set while auth is enabled: no token is configured (SVC_AUTH_DISABLED=true runs without auth)",
    );
  return tokens;
}

// The pod's namespace: POD_NAMESPACE (the chart's downward API) or the service account's file.
function readOwnNamespace(read: EnvReader, probe: ConfigProbe): string | null {
  const given = read.string("POD_NAMESPACE", { check: isDnsLabel, expected: DNS_LABEL });
  if (given !== undefined) return given;
  const mounted = probe.readTextFile(join(SERVICE_ACCOUNT_DIR, "namespace"))?.trim();
  if (mounted === undefined || mounted === "") return null;
  if (!isDnsLabel(mounted)) read.problem(`${SERVICE_ACCOUNT_DIR}/namespace`, DNS_LABEL, mounted);
  return mounted;
}

// argv prefix: a JSON array of strings, or words separated by spaces.
function readRunnerCommand(read: EnvReader): string[] {
  const raw = read.string("SVC_RUNNER_COMMAND");
  if (raw === undefined) return ["svc-runner"];
  let parsed: unknown;
  try {
    parsed = raw.startsWith("[") ? JSON.parse(raw) : raw.split(/\s+/);
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((part) => typeof part === "string" && part))
    return parsed as string[];
  read.problem("SVC_RUNNER_COMMAND", "a JSON array of strings or a space-separated command", raw);
  return ["svc-runner"];
}

// Metering of launched Jobs: on when the agent image is set; then the secret and config map are
// required, and the image must be pinned (spec §9 rule 2), as the job chart requires of its sidecar.
function readMetering(read: EnvReader): MeteringSidecarConfig | null {
  const image = read.string("SVC_METERING_AGENT_IMAGE");
  const pinned = image !== undefined && (/@sha256:[0-9a-f]{64}$/.test(image) || /:[^/:@]+$/.test(image));
  if (image !== undefined && (!pinned || image.endsWith(":latest")))
    read.problem("SVC_METERING_AGENT_IMAGE", "pinned by digest or a version tag other than latest", image);
  const required = image === undefined ? undefined : "when SVC_METERING_AGENT_IMAGE is set";
  const reportingSecret = read.string("SVC_METERING_REPORTING_SECRET", {
    check: isDnsName,
    expected: DNS_NAME,
    required,
  });
  const configMap = read.string("SVC_METERING_CONFIG_MAP", {
    check: isDnsName,
    expected: DNS_NAME,
    required,
  });
  const port = read.int("SVC_METERING_PORT", { fallback: 4567, min: 1, max: 65535 });
  if (image === undefined) return null;
  return { image, reportingSecret: reportingSecret ?? "", configMap: configMap ?? "", port };
}

// `key=value` with a valid label key and value (a node selector, a pod label selector).
function isLabelPair(pair: string): boolean {
  const [key = "", value = "", ...rest] = pair.split("=");
  return pair.includes("=") && rest.length === 0 && isLabelKey(key) && isLabelValue(value);
}

function labelPairs(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => pair.split("=")));
}

// In-cluster when the kubelet injected the service host and the service account token (what
// client-node's loadFromCluster needs); otherwise KUBECONFIG or ~/.kube/config; otherwise none.
function detectKubeSource(read: EnvReader, probe: ConfigProbe): KubeSource {
  const serviceHost = read.string("KUBERNETES_SERVICE_HOST");
  if (serviceHost !== undefined && probe.fileExists(join(SERVICE_ACCOUNT_DIR, "token")))
    return { mode: "in-cluster" };
  const explicit = read.string("KUBECONFIG");
  if (explicit !== undefined) {
    const existing = explicit.split(":").find((path) => path !== "" && probe.fileExists(path));
    if (existing === undefined) {
      read.problem("KUBECONFIG", "a list of kubeconfig files, one of them existing", explicit);
      return { mode: "none", reason: "KUBECONFIG names no existing file" };
    }
    return { mode: "kubeconfig", path: existing };
  }
  // HOME as the process was given it, else the account's home (os.homedir(), injected)
  const homeDir = read.string("HOME") ?? probe.homeDir;
  const home = homeDir ? join(homeDir, ".kube", "config") : undefined;
  if (home !== undefined && probe.fileExists(home)) return { mode: "kubeconfig", path: home };
  return { mode: "none", reason: "no in-cluster service account and no kubeconfig" };
}

/** Every environment variable {@link loadConfig} reads, recorded from the function itself (chart contract test). */
export const PREFLIGHT_ENV_NAMES: readonly string[] = recordEnvReads((env) =>
  loadConfig(env, { fileExists: () => false, readTextFile: () => undefined, homeDir: undefined }),
);
