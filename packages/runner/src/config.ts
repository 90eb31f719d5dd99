import {
  configProblemsText,
  createEnvReader,
  defaultRunId,
  type EnvReader,
  type EnvReadResult,
  ID_RULE,
  isSafeId,
  RUN_STAGES,
  type RunStage,
  recordEnvReads,
} from "@svc/core";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS } from "@svc/science/structure-modules";
import { type ReportOptions, resolveReportOptions } from "./outputs/report/report-options.ts";
import { RunnerError } from "./runner-error.ts";

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

const ENV_FLAG: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FLAG_ENV).map(([flag, name]) => [
    name,
    `--${flag.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`,
  ]),
);

/**
 * Core's one reader over flags and environment: a flag wins over its SVC_* variable (a blank flag
 * is not given), and a problem names both, `--run-id / SVC_RUN_ID must be … (got "…")`.
 */
function createRunnerReader(flags: RunnerFlags, env: NodeJS.ProcessEnv): EnvReader {
  const overrides: Record<string, string | undefined> = {};
  for (const [flag, value] of Object.entries(flags))
    if (flag in FLAG_ENV) overrides[FLAG_ENV[flag as keyof typeof FLAG_ENV]] = value;
  return createEnvReader(env, {
    overrides,
    labelOf: (name) => (ENV_FLAG[name] === undefined ? name : `${ENV_FLAG[name]} / ${name}`),
  });
}

const LOG_FORMATS = ["text", "json"] as const;
const AUTH_MODES: readonly AuthMode[] = ["cloud", "k8s", "dev"];
/** docs/contracts/run-id.md: the same grammar and message as the entitlement service and preflight. */
const ID_EXPECTED = ID_RULE.replace(/^must be /, "");
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * The log format before (or without) a valid configuration, so that a refused configuration is
 * reported as the operator asked: `--log-format` over SVC_LOG_FORMAT; JSON only when asked for.
 */
export function earlyLogFormat(
  flags: Pick<RunnerFlags, "logFormat">,
  env: NodeJS.ProcessEnv,
): "text" | "json" {
  return createRunnerReader(flags, env).string(FLAG_ENV.logFormat) === "json" ? "json" : "text";
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

/** Reads and validates the whole configuration once with core's reader; every problem is reported together. */
export function resolveRunConfig(
  flags: RunnerFlags,
  env: NodeJS.ProcessEnv,
  options: ResolveOptions = {},
): RunnerConfig {
  const read = createRunnerReader(flags, env);
  const projectId = read.string(FLAG_ENV.projectId, {
    check: isSafeId,
    expected: ID_EXPECTED,
    required: true,
  });
  const runId = read.string(FLAG_ENV.runId, {
    check: isSafeId,
    expected: ID_EXPECTED,
    fallback: defaultRunId(options.now ?? new Date()),
  });
  const mode = read.oneOf(FLAG_ENV.mode, ["standard", "deep"] as const, { fallback: "standard" });
  const moduleId = read.oneOf(FLAG_ENV.module, ["computational"] as const, { fallback: "computational" });
  const entitlement = readEntitlementSettings(read, options.entitled ?? true);
  const shards = read.int(FLAG_ENV.shards, { fallback: 1, min: 1, max: 1000 });
  const shardIndex = read.int(FLAG_ENV.shardIndex, { fallback: 0, min: 0, max: 999 });
  if (shardIndex >= shards) read.problem(FLAG_ENV.shardIndex, `below --shards ${shards}`, String(shardIndex));
  const report = resolveReportOptions(read);
  const metricName =
    read.string("SVC_METRIC_NAME") ??
    (mode === "deep"
      ? read.string("SVC_METRIC_NAME_DEEP", { fallback: "deep_audit_run" })
      : read.string("SVC_METRIC_NAME_STANDARD", { fallback: "standard_audit_run" }));
  const result = read.finish<RunnerConfig>({
    projectId: projectId ?? "",
    runId,
    inputRoot: read.string(FLAG_ENV.inputRoot, { fallback: "/data/input" }),
    outputRoot: read.string(FLAG_ENV.outputRoot, { fallback: "/data/output" }),
    mode,
    moduleId,
    ...entitlement,
    categoryPreset: read.string(FLAG_ENV.categoryPreset, { fallback: "auto" }),
    logFormat: read.oneOf(FLAG_ENV.logFormat, LOG_FORMATS, { fallback: "text" }),
    image: {
      reference: read.string("SVC_IMAGE_REFERENCE", { fallback: "svc-runner:local" }),
      digest:
        read.string("SVC_IMAGE_DIGEST", {
          check: (digest) => DIGEST.test(digest),
          expected: "sha256:<64 hex>",
        }) ?? null,
    },
    meteringUrl: read.url("SVC_METERING_URL") ?? null,
    metricName,
    cloudRegion: read.string("SVC_CLOUD_REGION") ?? null,
    cloudLocation: read.string("SVC_CLOUD_LOCATION") ?? null,
    maxInvalidFraction: read.number(FLAG_ENV.maxInvalidFraction, { fallback: 0.5, min: 0, max: 1 }),
    maxHeavyAtoms: read.int(FLAG_ENV.maxHeavyAtoms, { fallback: 300, min: 1, max: 100_000 }),
    maxSmilesLength: read.int(FLAG_ENV.maxSmilesLength, { fallback: 4000, min: 1, max: 1_000_000 }),
    moleculeTimeoutSec: read.number(FLAG_ENV.moleculeTimeoutSec, { fallback: 10, min: 0.1, max: 3600 }),
    workers: read.int(FLAG_ENV.workers, { fallback: Math.max(1, options.cpuLimit ?? 1), min: 1, max: 256 }),
    shards,
    shardIndex,
    shardWaitSec: read.number(FLAG_ENV.shardWaitSec, { fallback: 6 * 3600, min: 1, max: 7 * 24 * 3600 }),
    dockingMaxCompounds: read.int(FLAG_ENV.dockingMaxCompounds, {
      fallback: MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
      min: 0,
      max: MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum,
    }),
    report,
    pauseAtStage: read.oneOf("SVC_TEST_PAUSE_AT_STAGE", RUN_STAGES) ?? null,
  });
  return configOrThrow(result);
}

// The runner's one way of refusing a configuration: CONFIG_INVALID listing every problem, worded as
// the services word theirs (core's configProblemsText), with the runner's exit for the code.
function configOrThrow<T>(result: EnvReadResult<T>): T {
  if (!result.ok) throw new RunnerError("CONFIG_INVALID", configProblemsText("svc-runner", result.problems));
  return result.config;
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

/** Reads the entitlement settings into the reader's problems (one rule for run and seal). */
function readEntitlementSettings(read: EnvReader, required: boolean): EntitlementSettings {
  const entitlementUrl = read.url(FLAG_ENV.entitlementUrl, {
    required: required ? "for an entitled run" : undefined,
  });
  return {
    entitlementUrl: entitlementUrl ?? "",
    authMode: read.oneOf(FLAG_ENV.authMode, AUTH_MODES, { fallback: "cloud" }),
    audience: read.string(FLAG_ENV.audience) ?? entitlementUrl ?? "",
    timeoutSec: read.number(FLAG_ENV.timeoutSec, { fallback: 20, min: 0, minExclusive: true, max: 3600 }),
    k8sTokenFile: read.string("SVC_K8S_TOKEN_FILE", { fallback: "/var/run/secrets/svc/token" }),
    devToken: read.string("SVC_DEV_TOKEN", { secret: true }),
    devTokenFile: read.string("SVC_DEV_TOKEN_FILE"),
    metadataUrl: read.url("SVC_METADATA_URL", { fallback: "http://metadata.google.internal" }),
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
  const read = createRunnerReader(flags, env);
  // --run-dir has no variable: it is read from the flags alone, trimmed like every value
  const runDir = flags.runDir?.trim() || undefined;
  if (runDir === undefined) read.problem("--run-dir", "a run output folder");
  const entitlement = readEntitlementSettings(read, true);
  const logFormat = read.oneOf(FLAG_ENV.logFormat, LOG_FORMATS, { fallback: "text" });
  return configOrThrow(read.finish<SealConfig>({ ...entitlement, runDir: runDir ?? "", logFormat }));
}

/**
 * Every environment variable {@link resolveRunConfig} reads, recorded from the function itself
 * (the chart contract test, test/charts/config-contract.e2e.test.ts, checks rendered Jobs against it).
 */
export const RUNNER_ENV_NAMES: readonly string[] = recordEnvReads(
  (env) => resolveRunConfig({}, env),
  { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://entitlement", SVC_RUN_MODE: "standard" },
  { SVC_PROJECT_ID: "p", SVC_ENTITLEMENT_URL: "http://entitlement", SVC_RUN_MODE: "deep" },
);
