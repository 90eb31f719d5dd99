#!/usr/bin/env node
import { RUN_FILES } from "@svc/core";
import { Command, Option } from "commander";
import { earlyLogFormat, FLAG_ENV, logFormatFlagOf } from "../src/config.ts";
import { createLogger } from "../src/log.ts";
import { mainRun, mainSeal, mainValidate } from "../src/main.ts";

const env = (name: string) => `(env ${name})`;

// Options shared by a run and `validate` (both validate every row the same way).
function addInputOptions(command: Command): Command {
  return command
    .option("--project-id <id>", `project folder under the input root ${env(FLAG_ENV.projectId)}`)
    .option("--input-root <dir>", `input root, default /data/input ${env(FLAG_ENV.inputRoot)}`)
    .option("--category-preset <id>", `auto or a category id, default auto ${env(FLAG_ENV.categoryPreset)}`)
    .option(
      "--max-invalid-fraction <share>",
      `refuse (exit 2, no charge) when more than this share of rows does not parse, default 0.5 ${env(FLAG_ENV.maxInvalidFraction)}`,
    )
    .option(
      "--max-heavy-atoms <n>",
      `larger molecules are unassessed without RDKit, default 300 ${env(FLAG_ENV.maxHeavyAtoms)}`,
    )
    .option(
      "--max-smiles-length <n>",
      `longer SMILES are unassessed without RDKit, default 4000 ${env(FLAG_ENV.maxSmilesLength)}`,
    )
    .option(
      "--molecule-timeout-sec <s>",
      `RDKit time budget per molecule, default 10 ${env(FLAG_ENV.moleculeTimeoutSec)}`,
    )
    .option("--workers <n>", `RDKit worker threads, default the container CPU limit ${env(FLAG_ENV.workers)}`)
    .addOption(
      new Option(
        "--log-format <format>",
        `stderr log format, default text ${env(FLAG_ENV.logFormat)}`,
      ).choices(["text", "json"]),
    );
}

const program = new Command("svc-runner")
  .description(
    "Audit job: validates staged inputs, runs the entitled computational audit, writes results and a seal.",
  )
  .option("--run-id <id>", `run id, default run_<UTC yyyymmddThhmmssZ> ${env(FLAG_ENV.runId)}`)
  .option("--output-root <dir>", `output root, default /data/output ${env(FLAG_ENV.outputRoot)}`)
  .addOption(new Option("--mode <mode>", `run profile ${env(FLAG_ENV.mode)}`).choices(["standard", "deep"]))
  .option("--module <id>", `module id, default computational ${env(FLAG_ENV.module)}`)
  .option("--entitlement-url <url>", `entitlement service address ${env(FLAG_ENV.entitlementUrl)}`)
  .addOption(
    new Option(
      "--auth-mode <mode>",
      `identity token source, default cloud ${env(FLAG_ENV.authMode)}`,
    ).choices(["cloud", "k8s", "dev"]),
  )
  .option("--audience <aud>", `token audience, default the entitlement url ${env(FLAG_ENV.audience)}`)
  .option(
    "--timeout-sec <n>",
    `budget per entitlement call incl. retries, default 20 ${env(FLAG_ENV.timeoutSec)}`,
  )
  .option("--dry-run", "validate inputs and every row and make the plan, like `validate`; never charges")
  .option("--shards <n>", `pods of an Indexed Job sharing this run, default 1 ${env(FLAG_ENV.shards)}`)
  .option("--shard-index <k>", `this pod's slice, default 0 ${env(FLAG_ENV.shardIndex)}`)
  .option(
    "--shard-wait-sec <s>",
    `how long a shard waits for the others, default 21600 ${env(FLAG_ENV.shardWaitSec)}`,
  )
  .option(
    "--docking-max-compounds <n>",
    `compounds docked per structure by this pod, a per-shard budget (0-1000; the rest not_assessed: cap), default 500 ${env(FLAG_ENV.dockingMaxCompounds)}`,
  )
  .addHelpText(
    "after",
    "\nExit codes: 0 sealed, 10 finished with a pre-seal, 2 bad input (nothing charged), 3 entitlement refused, 75 interrupted (rerun resumes), 1 internal failure.",
  )
  .action(async (options) => {
    process.exitCode = await mainRun(options, process.env);
  });
addInputOptions(program);

addInputOptions(
  program
    .command("validate")
    .description(
      "check inputs and parse every row with RDKit, and print the plan; never contacts the entitlement service",
    ),
)
  .option("--validation-out <file>", "also write the per-row report (svc.validation/v1 JSON) to this file")
  .action(async (_options, command: Command) => {
    process.exitCode = await mainValidate(command.optsWithGlobals(), process.env);
  });

program
  .command("seal")
  .description(`complete a pre-seal (${RUN_FILES.preseal}) once run_complete is reachable`)
  .requiredOption("--run-dir <dir>", "the run output folder")
  .option("--entitlement-url <url>", env("SVC_ENTITLEMENT_URL"))
  .option("--auth-mode <mode>", env("SVC_ENTITLEMENT_AUTH_MODE"))
  .option("--audience <aud>", env("SVC_ENTITLEMENT_AUDIENCE"))
  .option("--timeout-sec <n>", env("SVC_ENTITLEMENT_TIMEOUT_SEC"))
  .option("--log-format <format>", env("SVC_LOG_FORMAT"))
  .action(async (_options, command: Command) => {
    // Flags shared with the run command are parsed by the parent: read both levels.
    process.exitCode = await mainSeal(command.optsWithGlobals(), process.env);
  });

// commander's own usage errors (unknown flag, bad choice) exit 2 as bad usage.
program.exitOverride((error) => {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") process.exit(0);
  process.exit(2);
});
for (const command of program.commands) {
  command.exitOverride((error) => process.exit(error.code === "commander.helpDisplayed" ? 0 : 2));
}

// Never an unexplained exit (issue 10 item 2): anything that escapes the command's own error
// handling (a stream error event, a rejected promise nobody awaited) is logged with its cause.
const fatal = (kind: string) => (error: unknown) => {
  const format = earlyLogFormat({ logFormat: logFormatFlagOf(process.argv) }, process.env);
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  createLogger(format).error(`INTERNAL: ${kind}: ${cause} — report this failure with the log above`, {
    code: "INTERNAL",
    exit_code: 1,
  });
  process.exit(1);
};
process.on("uncaughtException", fatal("uncaught exception"));
process.on("unhandledRejection", fatal("unhandled promise rejection"));

await program.parseAsync(process.argv);
