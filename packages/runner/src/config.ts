import { defaultRunId, ID_RULE, isSafeId, RUN_STAGES, type RunStage, recordEnvReads } from "@svc/core";
import { type ReportOptions, resolveReportOptions } from "./outputs/report/report-options.ts";
import { RunnerError } from "./runner-error.ts";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS } from "./structure/docking-cap.ts";

export type AuthMode = "cloud" | "k8s" | "dev";

/** The runner's configuration: flags over SVC_* variables over defaults (docs/contracts/runner-env.md). */
export interface RunnerConfig {
  readonly projectId: string;
  readonly runId: string;
  readonly inputRoot: string;
  readonly outputRoot: string;
  readonly mode: "standard" | "deep";
  readonly moduleId: string;
  readonly entitlementUrl: string;
  readonly authMode: AuthMode;
  readonly audience: string;
  readonly timeoutSec: number;
  readonly categoryPreset: string;
  readonly logFormat: "text" | "json";
  readonly k8sTokenFile: string;
  readonly devToken: string | undefined;
  readonly devTokenFile: string | undefined;
  readonly metadataUrl: string;
  readonly image: { readonly reference: string; readonly digest: string | null };
  readonly meteringUrl: string | null;
  readonly metricName: string;
  readonly cloudRegion: string | null;
  readonly cloudLocation: string | null;
  /** Refuse before any charge when more than this share of rows does not parse (issue 10 item 1). */
  readonly maxInvalidFraction: number;
  /** Molecules over these limits are `unassessed` without reaching RDKit (issue 10 item 2). */
  readonly maxHeavyAtoms: number;
  readonly maxSmilesLength: number;
  /** Per-molecule RDKit time budget. */
  readonly moleculeTimeoutSec: number;
  /** RDKit worker threads: the container's CPU limit unless set. */
  readonly workers: number;
  /** Pods of an Indexed Job sharing this run (issue 10 item 9); 1 = not sharded. */
  readonly shards: number;
  /** This pod's slice: `JOB_COMPLETION_INDEX` from Kubernetes. */
  readonly shardIndex: number;
  /** How long a shard waits for the others before giving up. */
  readonly shardWaitSec: number;
  /** Compounds docked per staged structure, in portfolio order; the rest are `not_assessed: cap` (issue 25 item 4). */
  readonly dockingMaxCompounds: number;
  readonly report: ReportOptions;
  /**
   * Tests only (`SVC_TEST_PAUSE_AT_STAGE`): once the status record says this stage, the runner
   * logs `paused at stage <stage>` and waits to be killed, a boundary a test holds it at without
   * timing (issue 29: kill a run at each stage boundary).
   */
  readonly pauseAtStage: RunStage | null;
}

/** Flag name (commander camelCase) -> environment variable; the README table mirrors this. */
export const FLAG_ENV = {
  projectId: "SVC_PROJECT_ID",
  runId: "SVC_RUN_ID",
  inputRoot: "SVC_INPUT_ROOT",
  outputRoot: "SVC_OUTPUT_ROOT",
  mode: "SVC_RUN_MODE",
  module: "SVC_MODULE_ID",
  entitlementUrl: "SVC_ENTITLEMENT_URL",
  authMode: "SVC_ENTITLEMENT_AUTH_MODE",
  audience: "SVC_ENTITLEMENT_AUDIENCE",
  timeoutSec: "SVC_ENTITLEMENT_TIMEOUT_SEC",
  categoryPreset: "SVC_CATEGORY_PRESET",
  logFormat: "SVC_LOG_FORMAT",
  maxInvalidFraction: "SVC_MAX_INVALID_FRACTION",
  maxHeavyAtoms: "SVC_MAX_HEAVY_ATOMS",
  maxSmilesLength: "SVC_MAX_SMILES_LENGTH",
  moleculeTimeoutSec: "SVC_MOLECULE_TIMEOUT_SEC",
  workers: "SVC_WORKERS",
  shards: "SVC_SHARDS",
  shardIndex: "JOB_COMPLETION_INDEX",
  shardWaitSec: "SVC_SHARD_WAIT_SEC",
  dockingMaxCompounds: "SVC_DOCKING_MAX_COMPOUNDS",
} as const;

export type RunnerFlags = Partial<Record<keyof typeof FLAG_ENV, string>>;

function pick(flags: RunnerFlags, env: NodeJS.ProcessEnv, key: keyof typeof FLAG_ENV): string | undefined {
  const value = flags[key] ?? env[FLAG_ENV[key]];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * The log format before (or without) a valid configuration, so that a refused configuration is
 * reported as the operator asked: `--log-format` over SVC_LOG_FORMAT; JSON only when asked for.
 */
export function earlyLogFormat(
  flags: Pick<RunnerFlags, "logFormat">,
  env: NodeJS.ProcessEnv,
): "text" | "json" {
  return pick(flags, env, "logFormat") === "json" ? "json" : "text";
}

/** `--log-format json` or `--log-format=json` in a raw argv: for a failure before commander parsed it. */
export function logFormatFlagOf(argv: readonly string[]): string | undefined {
  const at = argv.indexOf("--log-format");
  if (at >= 0) return argv[at + 1];
  return argv.find((arg) => arg.startsWith("--log-format="))?.slice("--log-format=".length);
}

export interface ResolveOptions {
  readonly now?: Date;
  /** False for `svc-runner validate` / `--dry-run`: no entitlement service is contacted. */
  readonly entitled?: boolean;
  /** CPUs of the container (cgroup quota), the default worker count. */
  readonly cpuLimit?: number;
}

/** Reads and validates the whole configuration once; every problem is reported together. */
export function resolveRunConfig(
  flags: RunnerFlags,
  env: NodeJS.ProcessEnv,
  options: ResolveOptions = {},
): RunnerConfig {
  const now = options.now ?? new Date();
  const entitled = options.entitled ?? true;
  const problems: string[] = [];
  const projectId = pick(flags, env, "projectId");
  if (projectId === undefined) problems.push("--project-id / SVC_PROJECT_ID is required");
  else if (!isSafeId(projectId)) problems.push(`--project-id "${projectId}": ${ID_RULE}`);
  const runId = pick(flags, env, "runId") ?? defaultRunId(now);
  // docs/contracts/run-id.md: the same grammar and message as the entitlement service and preflight.
  if (!isSafeId(runId)) problems.push(`--run-id "${runId}": ${ID_RULE}`);
  const mode = pick(flags, env, "mode") ?? "standard";
  if (mode !== "standard" && mode !== "deep") problems.push(`--mode "${mode}": must be standard or deep`);
  const moduleId = pick(flags, env, "module") ?? "computational";
  if (moduleId !== "computational")
    problems.push(`--module "${moduleId}": this build provides only computational`);
  const entitlement = readEntitlementSettings(flags, env, problems, entitled);
  const logFormat = pick(flags, env, "logFormat") ?? "text";
  if (logFormat !== "text" && logFormat !== "json")
    problems.push(`--log-format "${logFormat}": must be text or json`);
  const digest = nonEmpty(env.SVC_IMAGE_DIGEST);
  if (digest !== null && !/^sha256:[0-9a-f]{64}$/.test(digest))
    problems.push("SVC_IMAGE_DIGEST: must be sha256:<64 hex>");
  const meteringUrl = nonEmpty(env.SVC_METERING_URL);
  if (meteringUrl !== null && !isHttpUrl(meteringUrl))
    problems.push(`SVC_METERING_URL "${meteringUrl}": must be an http(s) URL`);
  const number = (
    key: keyof typeof FLAG_ENV,
    fallback: number,
    min: number,
    max: number,
    integer: boolean,
  ) => {
    const text = pick(flags, env, key);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      const flag = `--${key.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`;
      problems.push(
        `${flag} / ${FLAG_ENV[key]} "${text}": must be ${integer ? "an integer" : "a number"} from ${min} to ${max}`,
      );
      return fallback;
    }
    return value;
  };
  const maxInvalidFraction = number("maxInvalidFraction", 0.5, 0, 1, false);
  const maxHeavyAtoms = number("maxHeavyAtoms", 300, 1, 100_000, true);
  const maxSmilesLength = number("maxSmilesLength", 4000, 1, 1_000_000, true);
  const moleculeTimeoutSec = number("moleculeTimeoutSec", 10, 0.1, 3600, false);
  const workers = number("workers", Math.max(1, options.cpuLimit ?? 1), 1, 256, true);
  const shards = number("shards", 1, 1, 1000, true);
  const shardIndex = number("shardIndex", 0, 0, 999, true);
  if (shardIndex >= shards)
    problems.push(`--shard-index / JOB_COMPLETION_INDEX ${shardIndex}: must be below --shards ${shards}`);
  const shardWaitSec = number("shardWaitSec", 6 * 3600, 1, 7 * 24 * 3600, false);
  const dockingMaxCompounds = number(
    "dockingMaxCompounds",
    MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
    0,
    MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum,
    true,
  );
  const report = resolveReportOptions(env, problems);
  const pauseAtStage = nonEmpty(env.SVC_TEST_PAUSE_AT_STAGE);
  if (pauseAtStage !== null && !(RUN_STAGES as readonly string[]).includes(pauseAtStage))
    problems.push(`SVC_TEST_PAUSE_AT_STAGE "${pauseAtStage}": must be one of ${RUN_STAGES.join(", ")}`);
  if (problems.length > 0)
    throw new RunnerError("CONFIG_INVALID", `configuration invalid: ${problems.join("; ")}`);
  const metricName =
    nonEmpty(env.SVC_METRIC_NAME) ??
    (mode === "deep"
      ? (nonEmpty(env.SVC_METRIC_NAME_DEEP) ?? "deep_audit_run")
      : (nonEmpty(env.SVC_METRIC_NAME_STANDARD) ?? "standard_audit_run"));
  return Object.freeze({
    projectId: projectId as string,
    runId,
    inputRoot: pick(flags, env, "inputRoot") ?? "/data/input",
    outputRoot: pick(flags, env, "outputRoot") ?? "/data/output",
    mode: mode as "standard" | "deep",
    moduleId,
    ...entitlement,
    categoryPreset: pick(flags, env, "categoryPreset") ?? "auto",
    logFormat: logFormat as "text" | "json",
    image: Object.freeze({ reference: nonEmpty(env.SVC_IMAGE_REFERENCE) ?? "svc-runner:local", digest }),
    meteringUrl,
    metricName,
    cloudRegion: nonEmpty(env.SVC_CLOUD_REGION),
    cloudLocation: nonEmpty(env.SVC_CLOUD_LOCATION),
    maxInvalidFraction,
    maxHeavyAtoms,
    maxSmilesLength,
    moleculeTimeoutSec,
    workers,
    shards,
    shardIndex,
    shardWaitSec,
    dockingMaxCompounds,
    report,
    pauseAtStage: pauseAtStage as RunStage | null,
  });
}

/** The entitlement client's settings: the part of the config `svc-runner seal` needs too. */
export type EntitlementSettings = Pick<
  RunnerConfig,
  | "entitlementUrl"
  | "authMode"
  | "audience"
  | "timeoutSec"
  | "k8sTokenFile"
  | "devToken"
  | "devTokenFile"
  | "metadataUrl"
>;

/** Validates the entitlement settings, pushing problems into `problems` (one rule for run and seal). */
function readEntitlementSettings(
  flags: RunnerFlags,
  env: NodeJS.ProcessEnv,
  problems: string[],
  required: boolean,
): EntitlementSettings {
  const entitlementUrl = pick(flags, env, "entitlementUrl");
  if (entitlementUrl === undefined) {
    if (required) problems.push("--entitlement-url / SVC_ENTITLEMENT_URL is required for an entitled run");
  } else if (!isHttpUrl(entitlementUrl))
    problems.push(`--entitlement-url "${entitlementUrl}": must be an http(s) URL`);
  const authMode = pick(flags, env, "authMode") ?? "cloud";
  if (!["cloud", "k8s", "dev"].includes(authMode))
    problems.push(`--auth-mode "${authMode}": must be cloud, k8s or dev`);
  const timeoutText = pick(flags, env, "timeoutSec") ?? "20";
  const timeoutSec = Number(timeoutText);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0 || timeoutSec > 3600) {
    problems.push(`--timeout-sec "${timeoutText}": must be a number of seconds between 0 and 3600`);
  }
  const metadataUrl = nonEmpty(env.SVC_METADATA_URL) ?? "http://metadata.google.internal";
  if (!isHttpUrl(metadataUrl)) problems.push(`SVC_METADATA_URL "${metadataUrl}": must be an http(s) URL`);
  return {
    entitlementUrl: entitlementUrl ?? "",
    authMode: authMode as AuthMode,
    audience: pick(flags, env, "audience") ?? entitlementUrl ?? "",
    timeoutSec,
    k8sTokenFile: nonEmpty(env.SVC_K8S_TOKEN_FILE) ?? "/var/run/secrets/svc/token",
    devToken: nonEmpty(env.SVC_DEV_TOKEN) ?? undefined,
    devTokenFile: nonEmpty(env.SVC_DEV_TOKEN_FILE) ?? undefined,
    metadataUrl,
  };
}

/** The configuration of `svc-runner seal`: the run directory and the entitlement settings. */
export interface SealConfig extends EntitlementSettings {
  readonly runDir: string;
  readonly logFormat: "text" | "json";
}

/**
 * Reads and validates `svc-runner seal`'s configuration with the same rules as a run's (one
 * timeout rule, one auth-mode rule); every problem reported together.
 */
export function resolveSealConfig(
  flags: RunnerFlags & { runDir?: string },
  env: NodeJS.ProcessEnv,
): SealConfig {
  const problems: string[] = [];
  const runDir = flags.runDir?.trim();
  if (!runDir) problems.push("--run-dir is required");
  const entitlement = readEntitlementSettings(flags, env, problems, true);
  const logFormat = pick(flags, env, "logFormat") ?? "text";
  if (logFormat !== "text" && logFormat !== "json")
    problems.push(`--log-format "${logFormat}": must be text or json`);
  if (problems.length > 0)
    throw new RunnerError("CONFIG_INVALID", `configuration invalid: ${problems.join("; ")}`);
  return Object.freeze({ ...entitlement, runDir: runDir as string, logFormat: logFormat as "text" | "json" });
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === "" ? null : value.trim();
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Every environment variable {@link resolveRunConfig} reads, recorded from the function itself
 * (the chart contract test, test/charts/config-contract.test.ts, checks rendered Jobs against it).
 */
export const RUNNER_ENV_NAMES: readonly string[] = recordEnvReads(
  (env) => resolveRunConfig({}, env),
  { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://entitlement", SVC_RUN_MODE: "standard" },
  { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://entitlement", SVC_RUN_MODE: "deep" },
);
