import { completeSeal } from "./complete-seal.ts";
import { type AuthMode, type RunnerFlags, resolveRunConfig } from "./config.ts";
import { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import {
  cloudTokenSource,
  devTokenSource,
  k8sTokenSource,
  type TokenSource,
} from "./lifecycle/token-source.ts";
import { createLogger, type Logger } from "./log.ts";
import { runAudit } from "./run-audit.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";

/** Builds the token source for an auth mode from the environment (docs/contracts/runner-env.md). */
export function createTokenSource(mode: AuthMode, env: NodeJS.ProcessEnv): TokenSource {
  if (mode === "cloud")
    return cloudTokenSource(env.SVC_METADATA_URL?.trim() || "http://metadata.google.internal");
  if (mode === "k8s") return k8sTokenSource(env.SVC_K8S_TOKEN_FILE?.trim() || "/var/run/secrets/svc/token");
  return devTokenSource(env.SVC_DEV_TOKEN, env.SVC_DEV_TOKEN_FILE);
}

/** `svc-runner` default command: one audit run; resolves to the process exit code. */
export async function mainRun(flags: RunnerFlags, env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const format = (flags.logFormat ?? env.SVC_LOG_FORMAT) === "json" ? "json" : "text";
  let log = createLogger(format);
  return report(log, async () => {
    const config = resolveRunConfig(flags, env);
    log = createLogger(config.logFormat);
    const entitlement = new EntitlementClient({
      baseUrl: config.entitlementUrl,
      audience: config.audience,
      tokens: createTokenSource(config.authMode, env),
      timeoutMs: config.timeoutSec * 1000,
      onRetry: (step, attempt, reason) => log.warn("entitlement retry", { step, attempt, reason }),
    });
    const outcome = await runAudit({ config, log, entitlement });
    const done = outcome.exitCode === EXIT.success ? "run sealed" : "run finished with a pre-seal (exit 10)";
    log.info(done, { run_dir: outcome.runDir, seal_status: outcome.sealStatus });
    return outcome.exitCode;
  });
}

export interface SealFlags {
  runDir?: string;
  entitlementUrl?: string;
  authMode?: string;
  audience?: string;
  timeoutSec?: string;
  logFormat?: string;
}

/** `svc-runner seal --run-dir <dir>`: completes a pre-seal. */
export async function mainSeal(flags: SealFlags, env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  const format = (flags.logFormat ?? env.SVC_LOG_FORMAT) === "json" ? "json" : "text";
  const log = createLogger(format);
  return report(log, async () => {
    const problems: string[] = [];
    const runDir = flags.runDir;
    if (!runDir) problems.push("--run-dir is required");
    const url = flags.entitlementUrl ?? env.SVC_ENTITLEMENT_URL;
    if (!url) problems.push("--entitlement-url / SVC_ENTITLEMENT_URL is required");
    const mode = flags.authMode ?? env.SVC_ENTITLEMENT_AUTH_MODE ?? "cloud";
    if (!["cloud", "k8s", "dev"].includes(mode))
      problems.push(`--auth-mode "${mode}": must be cloud, k8s or dev`);
    const timeoutSec = Number(flags.timeoutSec ?? env.SVC_ENTITLEMENT_TIMEOUT_SEC ?? "20");
    if (!Number.isFinite(timeoutSec) || timeoutSec <= 0)
      problems.push("--timeout-sec: must be a positive number");
    if (problems.length > 0)
      throw new RunnerError("CONFIG_INVALID", `configuration invalid: ${problems.join("; ")}`);
    const entitlement = new EntitlementClient({
      baseUrl: url as string,
      audience: flags.audience ?? env.SVC_ENTITLEMENT_AUDIENCE ?? (url as string),
      tokens: createTokenSource(mode as AuthMode, env),
      timeoutMs: timeoutSec * 1000,
      onRetry: (step, attempt, reason) => log.warn("entitlement retry", { step, attempt, reason }),
    });
    return completeSeal({ runDir: runDir as string, log, entitlement });
  });
}

/** The CLI edge: every failure becomes one line saying what happened and what to do. */
async function report(log: Logger, body: () => Promise<ExitCode>): Promise<ExitCode> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof RunnerError) {
      log.error(`${error.code}: ${error.message} — ${error.action}`, {
        code: error.code,
        exit_code: error.exitCode,
      });
      return error.exitCode;
    }
    log.error(
      `INTERNAL: ${(error as Error).stack ?? String(error)} — report this failure with the log above`,
      {
        code: "INTERNAL",
        exit_code: EXIT.internal,
      },
    );
    return EXIT.internal;
  }
}
