import { readFile } from "node:fs/promises";
import { join, normalize, sep } from "node:path";
import { runPath } from "@svc/core";
import { type MolfileMolecule, parseSdf } from "@svc/science/structure";

/** A docked top pose as the report uses it: the SD record as written and its connection table. */
export interface PoseRecord {
  readonly sdf: string;
  readonly molecule: MolfileMolecule;
}

/** Reads the pose files the docking module wrote under results/poses/ of the run folder. */
export interface PoseReader {
  /** The pose, or null when there is none, it is outside results/poses/ or does not parse. */
  read(poseFile: string | null): Promise<PoseRecord | null>;
}

/** The largest pose file read (a drug-sized ligand with hydrogens is a few KB). */
const MAX_POSE_BYTES = 256 * 1024;

export function createPoseReader(runDir: string): PoseReader {
  return {
    async read(poseFile) {
      if (poseFile === null) return null;
      // Only files the module wrote under results/poses/: the path comes from a results file.
      const relative = normalize(poseFile);
      if (!relative.startsWith(runPath("posesDir") + sep)) return null;
      try {
        const sdf = await readFile(join(runDir, relative), "utf8");
        if (sdf.length > MAX_POSE_BYTES) return null;
        const [molecule] = parseSdf(sdf);
        return molecule === undefined ? null : { sdf, molecule };
      } catch {
        return null;
      }
    },
  };
}
