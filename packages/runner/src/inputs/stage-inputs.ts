import { readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { CoreError, digestTree, type TreeDigest } from "@svc/core";
import type { StagedTarget } from "@svc/science/target-risk";
import { RunnerError } from "../runner-error.ts";
import { type AssayTable, assertAssayCandidatesKnown, readAssayTable } from "./assays-csv.ts";
import { resolveConfinedFile } from "./confine-path.ts";
import { type PortfolioLayout, validatePortfolio } from "./portfolio.ts";
import { parseSources, type Sources } from "./sources.ts";
import { type StagedStructure, stageStructures } from "./structure-inputs.ts";
import { readTargetTable } from "./targets-csv.ts";

/** Everything validated about a project's staged inputs, before any entitlement call. */
export interface StagedInputs {
  readonly projectDir: string;
  readonly sourcesDir: string;
  readonly sources: Sources;
  readonly portfolioPath: string;
  readonly portfolio: PortfolioLayout;
  /** Data rows of the assay table (0 when none staged). */
  readonly assayRowCount: number;
  /** The validated assay table, joined onto the rows as `activities`; null when none staged. */
  readonly assays: AssayTable | null;
  readonly targetsRowCount: number;
  /** The validated target table (`targets_csv`), handed to the modules; null when none staged. */
  readonly targets: readonly StagedTarget[] | null;
  readonly structureFiles: readonly string[];
  /** The `pdbs` entries, each parsed and its pocket checked (structure-inputs.ts). */
  readonly structures: readonly StagedStructure[];
  readonly trajectoryFiles: readonly string[];
  /** svc-tree/v1 digest of `01_sources/` (core): `inputs_sha256` of run_start and the seal. */
  readonly tree: TreeDigest;
}

/**
 * Validates `<input-root>/<project_id>/01_sources/` completely (domain notes, input contract):
 * sources.json, every referenced file confined to 01_sources/, the portfolio's columns and ids.
 */
export async function stageInputs(inputRoot: string, projectId: string): Promise<StagedInputs> {
  const projectDir = join(inputRoot, projectId);
  if (!(await isDirectory(projectDir))) {
    // domain notes: the well-known failure message, verbatim.
    throw new RunnerError("PROJECT_NOT_FOUND", `Project directory not found: ${projectDir}`);
  }
  const sourcesDir = join(projectDir, "01_sources");
  if (!(await isDirectory(sourcesDir))) {
    throw new RunnerError("PROJECT_NOT_FOUND", `Project directory has no 01_sources/: ${sourcesDir}`);
  }
  let text: string;
  try {
    text = await readFile(join(sourcesDir, "sources.json"), "utf8");
  } catch {
    throw new RunnerError("SOURCES_INVALID", `01_sources/sources.json not found in ${sourcesDir}`);
  }
  const sources = parseSources(text);
  const portfolioPath = await resolveConfinedFile(
    sourcesDir,
    sources.portfolio_selected_csv,
    "portfolio_selected_csv",
  );
  const optional = async (field: "assays_csv" | "compounds_csv" | "targets_csv") => {
    const ref = sources[field];
    return ref === null ? null : resolveConfinedFile(sourcesDir, ref, field);
  };
  const assaysPath = await optional("assays_csv");
  await optional("compounds_csv");
  const targetsPath = await optional("targets_csv");
  const structures = await stageStructures(sourcesDir, sources.pdbs);
  const structureFiles = structures.map((structure) => structure.path);
  const trajectoryFiles: string[] = [];
  for (const [at, ref] of sources.trajectories.entries()) {
    trajectoryFiles.push(await resolveConfinedFile(sourcesDir, ref, `trajectories[${at}]`));
  }
  // The assay table is read whole (it is small beside the portfolio) and its candidate ids are
  // checked while the portfolio streams by; both before anything is charged (issue 10 item 1).
  const assaysFile = assaysPath === null ? "" : `01_sources/${basename(assaysPath)}`;
  const assays = assaysPath === null ? null : await readAssayTable(assaysPath, assaysFile);
  const assayIdsSeen = new Set<string>();
  const portfolio = await validatePortfolio(
    portfolioPath,
    sources.primary_candidate_id,
    assays === null
      ? undefined
      : (id) => {
          if (assays.firstLine.has(id)) assayIdsSeen.add(id);
        },
  );
  if (assays !== null) assertAssayCandidatesKnown(assays, assaysFile, (id) => assayIdsSeen.has(id));
  const assayRowCount = assays?.rowCount ?? 0;
  // Read whole and checked row by row before anything is charged, like the assay table.
  const targets =
    targetsPath === null ? null : await readTargetTable(targetsPath, `01_sources/${basename(targetsPath)}`);
  const targetsRowCount = targets?.length ?? 0;
  let tree: TreeDigest;
  try {
    tree = await digestTree(sourcesDir);
  } catch (error) {
    if (error instanceof CoreError) {
      throw new RunnerError("INPUT_PATH_OUTSIDE", `01_sources/${error.message}; stage plain files only`, {
        cause: error,
      });
    }
    throw error;
  }
  return {
    projectDir,
    sourcesDir,
    sources,
    portfolioPath,
    portfolio,
    assayRowCount,
    assays,
    targetsRowCount,
    targets,
    structureFiles,
    structures,
    trajectoryFiles,
    tree,
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
