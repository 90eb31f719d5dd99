import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import type { CliConfig } from "../config/cli-config.ts";

/** `svc local run <project dir>`: the whole entitled lifecycle on this machine, as `npm run demo` does. */
export function registerLocalCommands(
  program: Command,
  io: CliIo,
  config: CliConfig,
  setExit: (code: number) => void,
): void {
  const local = program.command("local").description("Run an audit on this machine, no cluster needed.");
  local
    .command("run")
    .description(
      "Start an embedded entitlement service, grant a run, audit the project, verify the seal offline and online.",
    )
    .argument("<project-dir>", "a folder with 01_sources/sources.json (svc project init makes one)")
    .option("--out <dir>", "where input/ and output/ go", join("out", "local"))
    .option("--json", "print the outcome as JSON (progress goes to stderr)")
    .action(async (projectDir: string, options: { out: string; json?: boolean }) => {
      const { runLocalAudit } = await import("../local/run-local-audit.ts");
      setExit(
        await runLocalAudit({
          projectDir,
          outDir: resolve(options.out),
          label: "svc local run",
          env: config.env,
          title: "Local",
          stdout: io.stdout,
          stderr: io.stderr,
          ...(options.json ? { json: true } : {}),
        }),
      );
    });
}
