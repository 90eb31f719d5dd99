import { resolve } from "node:path";
import { containerCpuLimit } from "@svc/core";
import { completeSeal } from "./complete-seal.ts";
import {
  type EntitlementSettings,
  earlyLogFormat,
  type RunnerFlags,
  resolveRunConfig,
  resolveSealConfig,
} from "./config.ts";
import { watchSignals } from "./interruption.ts";
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
import type { PreChargeStages } from "./stages/run-stages.ts";
import { validateInputs } from "./validate-inputs.ts";

/**
 * Builds the token source for the validated auth mode (docs/contracts/runner-env.md) from the
 * validated settings only: the raw environment is read once, by the config module.
 */
export function createTokenSource(settings: EntitlementSettings): TokenSource {
  if (settings.authMode === "cloud") return cloudTokenSource(settings.metadataUrl);
  if (settings.authMode === "k8s") return k8sTokenSource(settings.k8sTokenFile);
  return devTokenSource(settings.devToken, settings.devTokenFile);
}

/** The entitlement client of a run and of `svc-runner seal`, from the validated settings only. */
function entitlementClient(settings: EntitlementSettings, log: Logger): EntitlementClient {
  return new EntitlementClient({
    baseUrl: settings.entitlementUrl,
    audience: settings.audience,
    tokens: createTokenSource(settings),
    timeoutMs: settings.timeoutSec * 1000,
    onRetry: (step, attempt, reason) => log.warn("entitlement retry", { step, attempt, reason }),
  });
}

/** `svc-runner` default command: one audit run; resolves to the process exit code. */
export async function mainRun(
  flags: RunnerFlags & { dryRun?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  if (flags.dryRun === true) return mainValidate(flags, env);
  const format = earlyLogFormat(flags, env);
  let log = createLogger(format);
  return report(log, async () => {
    const config = resolveRunConfig(flags, env, { cpuLimit: containerCpuLimit() });
    log = createLogger(config.logFormat);
    const entitlement = entitlementClient(config, log);
    const interruption = watchSignals(log);
    let outcome: Awaited<ReturnType<typeof runAudit>>;
    try {
      outcome = await runAudit({ config, log, entitlement, interruption });
    } finally {
      interruption.dispose();
    }
    const done =
      outcome.sealStatus === "shard_done"
        ? "shard finished; index 0 seals the run"
        : outcome.exitCode === EXIT.success
          ? "run sealed"
          : "run finished with a pre-seal (exit 10)";
    // Peak resident memory of the whole process, worker threads included (flat-memory check).
    const usage = process.resourceUsage();
    const maxRssMib = Math.round(usage.maxRSS / 1024);
    // CPU seconds of every thread of this process (Chromium, a child, not included): a figure a
    // loaded machine does not distort the way it distorts wall time.
    const cpuS = Math.round((usage.userCPUTime + usage.systemCPUTime) / 100_000) / 10;
    log.info(done, {
      run_dir: outcome.runDir,
      seal_status: outcome.sealStatus,
      max_rss_mib: maxRssMib,
      cpu_s: cpuS,
    });
    return outcome.exitCode;
  });
}

/**
 * `svc-runner validate` (and `--dry-run`): the inputs, the plan and every row through RDKit, by the
 * run's own stages stopping before its charge (validate-inputs.ts); never contacts the entitlement
 * service. Prints a JSON summary on stdout; `--validation-out <file>` also writes the per-row report.
 */
export async function mainValidate(
  flags: RunnerFlags & { validationOut?: string },
  env: NodeJS.ProcessEnv,
  io: { stdout?: (text: string) => void; stages?: PreChargeStages } = {},
): Promise<ExitCode> {
  const stdout = io.stdout ?? ((text: string) => process.stdout.write(text));
  const format = earlyLogFormat(flags, env);
  const log = createLogger(format);
  return report(log, async () => {
    const config = resolveRunConfig(flags, env, { entitled: false, cpuLimit: containerCpuLimit() });
    const { staged, planned, validation } = await validateInputs({
      config,
      log,
      reportPath: flags.validationOut ? resolve(flags.validationOut) : null,
      ...(io.stages === undefined ? {} : { stages: io.stages }),
    });
    const { summary } = validation;
    stdout(
      `${JSON.stringify(
        {
          schema: "svc.validation-result/v1",
          project_id: config.projectId,
          inputs_sha256: staged.tree.sha256,
          category_id: planned.category.category_id,
          modules: planned.plan.modules
            .filter((entry) => entry.bucket !== "not_in_category")
            .map(({ module_id, bucket, outcome, reason }) => ({ module_id, bucket, outcome, reason })),
          validation: summary,
          assays:
            staged.assays === null
              ? null
              : {
                  rows: staged.assays.rowCount,
                  censored_rows: staged.assays.censoredRows,
                  missing_rows: staged.assays.missingRows,
                  compounds: staged.assays.values.size,
                  assay_ids: staged.assays.assayIds,
                },
          targets: staged.targets === null ? null : { rows: staged.targets.length },
          charged: false,
        },
        null,
        2,
      )}\n`,
    );
    log.info("inputs valid; nothing was charged", { phase: "inputs", ok: summary.ok, rows: summary.rows });
    return EXIT.success;
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
export async function mainSeal(flags: SealFlags, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const format = earlyLogFormat(flags, env);
  const log = createLogger(format);
  return report(log, async () => {
    const config = resolveSealConfig(flags, env);
    const entitlement = entitlementClient(config, log);
    return completeSeal({ runDir: config.runDir, log, entitlement });
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
