import type { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { checkProject } from "../project/check-project.ts";
import { initProject } from "../project/init-project.ts";
import { svcCommand } from "../svc-command.ts";
import { emit } from "./command-output.ts";

/** `svc project init|check`: a valid `01_sources/` from a chemist's file, and the runner's checks on it. */
export function registerProjectCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const project = program.command("project").description("Prepare a project folder for an audit.");
  project
    .command("init")
    .description(
      "Write <project>/01_sources/ (portfolio, targets, sources.json) from a .csv, .smi or .sdf file.",
    )
    .argument("<portfolio>", "portfolio: .csv (smiles column), .smi or .sdf")
    .option("--targets <targets.csv>", "targets table (target_symbol or uniprot_id column)")
    .option("--name <project-id>", "project id (default: from the file name)")
    .option("--out <dir>", "project folder (default: ./<project-id>)")
    .option("--primary <candidate-id>", "primary candidate id")
    .option("--indication <text>", "indication, carried into the summary")
    .option("--force", "replace an existing 01_sources/")
    .option("--json", "print as JSON")
    .action(
      async (
        portfolio: string,
        options: {
          targets?: string;
          name?: string;
          out?: string;
          primary?: string;
          indication?: string;
          force?: boolean;
          json?: boolean;
        },
      ) => {
        const result = await initProject({ portfolio, ...options });
        emit(io, options.json, result, () => [
          `wrote ${result.projectDir}/01_sources/ (sources.json, portfolio_selected.csv${result.sourcesJson.targets_csv ? ", targets.csv" : ""})`,
          ...result.inferred.map((line) => `  ${line}`),
          `next: ${svcCommand()} project check ${result.projectDir}   or   ${svcCommand()} local run ${result.projectDir}`,
        ]);
      },
    );
  project
    .command("check")
    .description(
      "Validate a project as the audit job does (every row through RDKit), without charging a run.",
    )
    .argument("<project-dir>", "folder with 01_sources/")
    .option("--json", "print the runner's whole validation result (modules, rows, hashes) as JSON")
    .action(async (projectDir: string, options: { json?: boolean }) => {
      setExit(await checkProject(projectDir, io.stdout, io.stderr, options));
    });
}
