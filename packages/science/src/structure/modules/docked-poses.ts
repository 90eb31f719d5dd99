import { type DockingResultFile, readRunFolder } from "@svc/core";
import { ScienceError } from "../../science-error.ts";

/** One docked compound's top pose, as molecular_docking wrote it. */
export interface DockedPose {
  readonly candidate_id: string;
  readonly score_kcal_mol: number;
  /** Relative to the run folder (results/poses/structure-<n>/<candidate>.sdf). */
  readonly pose_file: string;
}

/**
 * The docked poses of one structure, best score first, from results/molecular_docking.json (the
 * structure stage runs docking before the modules that read it); or why there are none, and what
 * docking said of each compound it did not dock.
 */
export type DockedPoses =
  | {
      readonly status: "read";
      readonly ranked: readonly DockedPose[];
      readonly notDocked: ReadonlyMap<string, string>;
    }
  | { readonly status: "none"; readonly reason: string };

/**
 * results/molecular_docking.json through core's readRunFolder, checked against core's strict
 * dockingResultSchema (issue 39 item 3): null when the run has none (docking not planned, or it
 * failed). The run wrote it itself, so one that does not match is a build defect, named by the
 * schema's first mismatch.
 */
async function readDockingResult(runDir: string): Promise<DockingResultFile | null> {
  try {
    return await readRunFolder(runDir).dockingResult();
  } catch (error) {
    throw new ScienceError("STRUCTURE_DOCKING_RESULT_INVALID", (error as Error).message, { cause: error });
  }
}

export async function readDockedPoses(runDir: string, structureIndex: number): Promise<DockedPoses> {
  const file = await readDockingResult(runDir);
  if (file === null)
    return {
      status: "none",
      reason: "no docked pose: molecular_docking has no result in this run (not planned, or it failed)",
    };
  const record = file.structures.find((entry) => entry.index === structureIndex);
  if (record === undefined)
    return { status: "none", reason: "no docked pose: molecular_docking docked nothing into this structure" };
  const ranked: DockedPose[] = [];
  const notDocked = new Map<string, string>();
  for (const compound of record.compounds)
    if (compound.status === "docked")
      ranked.push({
        candidate_id: compound.candidate_id,
        score_kcal_mol: compound.score_kcal_mol,
        pose_file: compound.pose_file,
      });
    else notDocked.set(compound.candidate_id, compound.reason);
  // Best (most negative) score first; ties in portfolio order (a stable sort).
  ranked.sort((a, b) => a.score_kcal_mol - b.score_kcal_mol);
  return { status: "read", ranked, notDocked };
}
