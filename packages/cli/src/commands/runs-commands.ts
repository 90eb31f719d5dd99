import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { RUN_FILES } from "@svc/core/run-files";
import type { Command } from "commander";
import { CliError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import type { CliConfig } from "../config/cli-config.ts";
import { formatBytes } from "../http/format-bytes.ts";
import { emit, formatTable } from "./command-output.ts";
import type { ContextOption } from "./command-session.ts";

// The session (contexts file, secrets, the services' clients) loads when a command runs, not for --help.
const sessionOpener = (config: CliConfig) => async (options: ContextOption) =>
  (await import("./command-session.ts")).openSession(options, config);

import { svcCommand } from "../config/svc-command.ts";
import { parseIntegerOption, parseMode } from "./parse-options.ts";
import { streamRunLog } from "./stream-run-log.ts";
import { describeRun, exitCodeOfRun, waitForRun } from "./wait-for-run.ts";

interface Common {
  context?: string;
  namespace?: string;
  json?: boolean;
}

const context = ["--context <name>", "context to use (default: current)"] as const;
const namespaceOption = ["--namespace <namespace>", "namespace (default: the context's)"] as const;

/**
 * Where a download goes: `-o` naming an existing folder means the file's own name inside it (as
 * `cp` does); a folder that does not exist, or an existing file without --force, is refused before
 * anything is fetched, with the command that fixes it.
 */
function downloadDestination(
  output: string | undefined,
  defaultName: string,
  force: boolean | undefined,
): string {
  const named = resolve(output ?? defaultName);
  const path = existsSync(named) && statSync(named).isDirectory() ? join(named, defaultName) : named;
  const folder = dirname(path);
  if (!existsSync(folder))
    throw new CliError(
      "INPUT_INVALID",
      `${folder} does not exist: create it (mkdir -p ${folder}) or pass another -o`,
    );
  if (!statSync(folder).isDirectory())
    throw new CliError("INPUT_INVALID", `${folder} is not a folder: pass -o <folder>/<file>`);
  if (!force && existsSync(path))
    throw new CliError("INPUT_INVALID", `${path} exists: pass --force to replace it, or -o <other file>`);
  return path;
}

/** `svc runs launch|list|status|logs|outputs|get|repro-pack` against the context's preflight service. */
export function registerRunsCommands(
  program: Command,
  io: CliIo,
  config: CliConfig,
  setExit: (code: number) => void,
): void {
  const openSession = sessionOpener(config);
  const runs = program.command("runs").description("Launch runs, follow them, read their logs and outputs.");

  runs
    .command("launch")
    .description("Launch a run of a staged project as a Kubernetes Job.")
    .argument("<project-id>", "project staged under <input-root>/<project-id>/01_sources/")
    .option("--run-id <id>", "run id (default: the service's run_<timestamp>)")
    .option("--mode <mode>", "standard or deep", "standard")
    .option("--gpu-docking", "GPU docking (deep mode only)")
    .option("--wait", "follow the run to its end, then print its summary and seal state")
    .option("--interval <seconds>", "polling interval of --wait", "5")
    .option(...namespaceOption)
    .option(...context)
    .option("--json", "print as JSON")
    .action(
      async (
        projectId: string,
        options: Common & {
          runId?: string;
          mode: string;
          gpuDocking?: boolean;
          wait?: boolean;
          interval: string;
        },
      ) => {
        const mode = parseMode(options.mode);
        const interval = parseIntegerOption("--interval", options.interval, 1, 3600);
        const session = await openSession(options);
        const namespace = session.namespace(options.namespace);
        if (!namespace)
          throw new CliError(
            "INPUT_INVALID",
            `pass --namespace, or set one: ${svcCommand()} context add ${session.contextName} --namespace <ns>`,
          );
        const client = await session.preflight();
        const launched = await client.launch({
          projectId,
          namespace,
          mode,
          ...(options.runId ? { runId: options.runId } : {}),
          ...(options.gpuDocking ? { gpuDocking: true } : {}),
        });
        if (!options.wait) {
          emit(io, options.json, launched, () => [
            `launched run ${launched.runId} as Job ${launched.namespace}/${launched.jobName} (${launched.mode}${launched.gpu ? ", GPU" : ""})`,
            `follow it: ${svcCommand()} runs status ${launched.runId} --wait   logs: ${svcCommand()} runs logs ${launched.runId} -f`,
          ]);
          return;
        }
        if (!options.json)
          io.stdout(`launched run ${launched.runId} as Job ${launched.namespace}/${launched.jobName}\n`);
        const run = await waitForRun(client, launched.runId, namespace, interval * 1000, (line) => {
          if (!options.json) io.stdout(`${line}\n`);
        });
        emit(io, options.json, { launched, run }, () => describeRun(run));
        setExit(exitCodeOfRun(run));
      },
    );

  runs
    .command("list")
    .description("Runs in the output root and Jobs the service launched, newest first.")
    .option("--limit <n>", "at most this many (1-1000)", "100")
    .option(...namespaceOption)
    .option(...context)
    .option("--json", "print as JSON")
    .action(async (options: Common & { limit: string }) => {
      const limit = parseIntegerOption("--limit", options.limit, 1, 1000);
      const session = await openSession(options);
      const namespace = session.namespace(options.namespace);
      const answer = await (await session.preflight()).listRuns({
        limit,
        ...(namespace ? { namespace } : {}),
      });
      emit(io, options.json, answer, () =>
        answer.runs.length === 0
          ? [`no runs yet: ${svcCommand()} runs launch <project-id>`]
          : formatTable(
              ["RUN", "STATE", "PROJECT", "MODE", "CREATED", "SEAL"],
              answer.runs.map((run) => [
                run.runId,
                run.state,
                run.projectId ?? "-",
                run.mode ?? "-",
                run.createdAt ?? "-",
                run.sealStatus,
              ]),
            ),
      );
    });

  runs
    .command("status")
    .description("One run: state, Job, pods, seal and summary highlights.")
    .argument("<run-id>", "run id")
    .option("--wait", "follow the run to its end")
    .option("--interval <seconds>", "polling interval of --wait", "5")
    .option(...namespaceOption)
    .option(...context)
    .option("--json", "print as JSON")
    .action(async (runId: string, options: Common & { wait?: boolean; interval: string }) => {
      const interval = parseIntegerOption("--interval", options.interval, 1, 3600);
      const session = await openSession(options);
      const namespace = session.namespace(options.namespace);
      const client = await session.preflight();
      const run = options.wait
        ? await waitForRun(client, runId, namespace, interval * 1000, (line) => {
            if (!options.json) io.stdout(`${line}\n`);
          })
        : await client.getRun(runId, namespace);
      emit(io, options.json, run, () => describeRun(run));
      if (options.wait) setExit(exitCodeOfRun(run));
    });

  runs
    .command("logs")
    .description("The run's log; -f follows it until the container ends.")
    .argument("<run-id>", "run id")
    .option("-f, --follow", "keep streaming until the container ends (waits for the pod to start)")
    .option("--container <name>", "container (default: the runner)")
    .option("--pod <name>", "pod (default: the newest of the run's Job)")
    .option("--tail <lines>", "only the last N lines")
    .option(...namespaceOption)
    .option(...context)
    .action(
      async (
        runId: string,
        options: Common & { follow?: boolean; container?: string; pod?: string; tail?: string },
      ) => {
        const tail =
          options.tail === undefined
            ? undefined
            : String(parseIntegerOption("--tail", options.tail, 1, 100_000));
        const session = await openSession(options);
        const namespace = session.namespace(options.namespace);
        const client = await session.preflight();
        const query = {
          namespace,
          container: options.container,
          pod: options.pod,
          tailLines: tail,
          follow: options.follow ? "true" : undefined,
        };
        await streamRunLog(client, runId, query, Boolean(options.follow), io);
      },
    );

  runs
    .command("outputs")
    .description("List a run's outputs (well-known folders first), optionally under a prefix.")
    .argument("<run-id>", "run id")
    .argument("[prefix]", `relative prefix, e.g. ${RUN_FILES.resultsDir}`)
    .option(...context)
    .option("--json", "print as JSON")
    .action(async (runId: string, prefix: string | undefined, options: Common) => {
      const session = await openSession(options);
      const listing = await (await session.preflight()).listOutputs(runId, prefix);
      emit(io, options.json, listing, () => [
        ...formatTable(
          ["PATH", "SIZE", "MODIFIED"],
          listing.entries.map((entry) => [
            entry.path,
            entry.type === "directory" ? "-" : formatBytes(entry.size),
            entry.modified,
          ]),
        ),
        ...(listing.truncated ? ["(listing truncated: narrow it with a prefix)"] : []),
      ]);
    });

  runs
    .command("get")
    .description("Download one output file; an interrupted download resumes where it stopped.")
    .argument("<run-id>", "run id")
    .argument("<path>", `relative path in the run, e.g. ${RUN_FILES.summary}`)
    .option("-o, --output <file>", "where to write it (default: its name in the current folder)")
    .option("--force", "replace an existing file")
    .option(...context)
    .option("--json", "print as JSON")
    .action(async (runId: string, path: string, options: Common & { output?: string; force?: boolean }) => {
      const destination = downloadDestination(options.output, basename(path), options.force);
      const session = await openSession(options);
      const { downloadOutput } = await import("../http/resumable-download.ts");
      const result = await downloadOutput(
        await session.preflight(),
        { runId, path },
        destination,
        process.stderr,
      );
      emit(io, options.json, result, () => [
        `${path} -> ${result.path} (${formatBytes(result.bytes)}${result.resumedFrom > 0 ? `, resumed at ${formatBytes(result.resumedFrom)}` : ""})`,
      ]);
    });

  runs
    .command("repro-pack")
    .description("Download the run's repro_pack/ as a gzip tar.")
    .argument("<run-id>", "run id")
    .option("-o, --output <file>", "where to write it (default: <run-id>-repro_pack.tgz)")
    .option("--force", "replace an existing file")
    .option(...context)
    .option("--json", "print as JSON")
    .action(async (runId: string, options: Common & { output?: string; force?: boolean }) => {
      const destination = downloadDestination(options.output, `${runId}-repro_pack.tgz`, options.force);
      const session = await openSession(options);
      const response = await (await session.preflight()).stream("/api/outputs/repro-pack.tgz", { runId });
      const { saveStream } = await import("../http/resumable-download.ts");
      const bytes = await saveStream(response, "repro_pack.tgz", destination, process.stderr);
      emit(io, options.json, { path: destination, bytes }, () => [
        `repro pack -> ${destination} (${formatBytes(bytes)})`,
      ]);
    });
}
