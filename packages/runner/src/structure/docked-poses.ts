import { readRunFolder } from "@svc/core";

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

export async function readDockedPoses(runDir: string, structureIndex: number): Promise<DockedPoses> {
  // core's reader: the file checked against the docking result's schema (issue 41 item 1)
  const parsed = await readRunFolder(runDir)
    .dockingResult()
    .catch(() => null);
  if (parsed === null)
    return {
      status: "none",
      reason: "no docked pose: molecular_docking has no result in this run (not planned, or it failed)",
    };
  const record = parsed.structures.find((entry) => entry.index === structureIndex);
  if (record?.compounds === undefined) {
    const why = record?.result?.reason;
    return {
      status: "none",
      reason: `no docked pose: molecular_docking docked nothing into this structure${typeof why === "string" ? ` (${why})` : ""}`,
    };
  }
  const ranked: DockedPose[] = [];
  const notDocked = new Map<string, string>();
  for (const compound of record.compounds) {
    const id = compound.candidate_id;
    if (typeof id !== "string") continue;
    if (
      compound.status === "docked" &&
      typeof compound.score_kcal_mol === "number" &&
      typeof compound.pose_file === "string"
    )
      ranked.push({
        candidate_id: id,
        score_kcal_mol: compound.score_kcal_mol,
        pose_file: compound.pose_file,
      });
    else notDocked.set(id, typeof compound.reason === "string" ? compound.reason : "not docked");
  }
  // Best (most negative) score first; ties in portfolio order (a stable sort).
  ranked.sort((a, b) => a.score_kcal_mol - b.score_kcal_mol);
  return { status: "read", ranked, notDocked };
}
