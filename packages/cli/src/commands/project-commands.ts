import type { Command } from "commander";
import { CliError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { svcCommand } from "../config/svc-command.ts";
import { checkProject } from "../project/check-project.ts";
import { initProject, type StructureOption } from "../project/init-project.ts";
import { emit } from "./command-output.ts";

/** `svc project init|check`: a valid `01_sources/` from a chemist's file, and the runner's checks on it. */
export function registerProjectCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  // --structure, --ligand and --box are repeatable; a --ligand or --box belongs to the --structure
  // before it, so each option records its place in the command line.
  let order = 0;
  const collect = (value: string, previous: { at: number; value: string }[] = []) => [
    ...previous,
    { at: order++, value },
  ];
  const project = program.command("project").description("Prepare a project folder for an audit.");
  project
    .command("init")
    .description(
      "Write <project>/01_sources/ (portfolio, targets, sources.json) from a .csv, .smi or .sdf file.",
    )
    .argument("<portfolio>", "portfolio: .csv (smiles column), .smi or .sdf")
    .option("--targets <targets.csv>", "targets table (target_symbol or uniprot_id column)")
    .option(
      "--assays <assays.csv>",
      "measured activities: a compound id column and p values (pIC50, pChEMBL Value) or values with units (IC50 (nM)); censored values (>10000) and n.d. allowed",
    )
    .option("--name <project-id>", "project id (default: from the file name)")
    .option("--out <dir>", "project folder (default: ./<project-id>)")
    .option("--primary <candidate-id>", "primary candidate id")
    .option("--indication <text>", "indication, carried into the summary")
    .option(
      "--profile <profile>",
      "target product profile the compounds are ordered against: oral_peripheral (default), oral_cns, non_oral",
    )
    .option("--force", "replace an existing 01_sources/")
    .option("--structure <file>", "receptor structure, PDB or mmCIF (repeatable)", collect)
    .option("--ligand <RES:CHAIN:NUM|file.sdf>", "reference ligand of the --structure before it", collect)
    .option("--box <cx,cy,cz,sx,sy,sz>", "pocket box in Å of the --structure before it", collect)
    .option("--json", "print as JSON")
    .action(
      async (
        portfolio: string,
        options: {
          targets?: string;
          assays?: string;
          name?: string;
          out?: string;
          primary?: string;
          indication?: string;
          profile?: string;
          force?: boolean;
          json?: boolean;
          structure?: Placed[];
          ligand?: Placed[];
          box?: Placed[];
        },
      ) => {
        const { structure, ligand, box, ...rest } = options;
        const result = await initProject({
          portfolio,
          ...rest,
          structures: pairStructures(structure, ligand, box),
        });
        emit(io, options.json, result, () => [
          `wrote ${result.projectDir}/01_sources/ (sources.json, portfolio_selected.csv${result.sourcesJson.targets_csv ? ", targets.csv" : ""}${result.copied.length > 0 ? `, ${result.copied.join(", ")}` : ""})`,
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

interface Placed {
  readonly at: number;
  readonly value: string;
}

/** Each --ligand and --box given to the nearest --structure before it on the command line. */
function pairStructures(
  structures: readonly Placed[] = [],
  ligands: readonly Placed[] = [],
  boxes: readonly Placed[] = [],
): StructureOption[] {
  const owner = (option: Placed, flag: string): StructureOption => {
    const index = structures.findLastIndex((structure) => structure.at < option.at);
    if (index === -1)
      throw new CliError(
        "INPUT_INVALID",
        `${flag} ${option.value}: give it after the --structure it belongs to`,
      );
    return paired[index] as StructureOption;
  };
  const paired: StructureOption[] = structures.map((structure) => ({ file: structure.value }));
  for (const ligand of ligands) {
    const target = owner(ligand, "--ligand");
    if (target.ligand !== undefined)
      throw new CliError("INPUT_INVALID", `--structure ${target.file}: one --ligand each`);
    target.ligand = ligand.value;
  }
  for (const box of boxes) {
    const target = owner(box, "--box");
    if (target.box !== undefined)
      throw new CliError("INPUT_INVALID", `--structure ${target.file}: one --box each`);
    target.box = box.value;
  }
  return paired;
}
