import { round } from "../numeric/round.ts";

/**
 * How close a pose stayed, as the MD trajectory's ligand heavy-atom RMSD to the input pose (after
 * aligning each frame on the pocket Cα) says: mean and maximum over the production frames, and the
 * fraction of frames within `withinAngstrom` (2 Å: the pose-prediction success threshold of docking
 * benchmarks, e.g. Buttenschoen et al., Chem. Sci. 2024; a stable pose stays inside it).
 */
export interface RmsdSummary {
  readonly frames: number;
  readonly mean_angstrom: number;
  readonly max_angstrom: number;
  readonly final_angstrom: number;
  readonly fraction_within: number;
  readonly within_angstrom: number;
}

export const POSE_STABLE_WITHIN_ANGSTROM = 2;

/** Summary of an RMSD series; null when it has no frame or a value that is not finite. */
export function summariseRmsd(
  rmsd: readonly number[],
  withinAngstrom: number = POSE_STABLE_WITHIN_ANGSTROM,
): RmsdSummary | null {
  if (rmsd.length === 0 || rmsd.some((value) => !Number.isFinite(value))) return null;
  const sum = rmsd.reduce((total, value) => total + value, 0);
  return {
    frames: rmsd.length,
    mean_angstrom: round(sum / rmsd.length, 2),
    max_angstrom: round(Math.max(...rmsd), 2),
    final_angstrom: round(rmsd.at(-1) ?? Number.NaN, 2),
    fraction_within: round(rmsd.filter((value) => value <= withinAngstrom).length / rmsd.length, 3),
    within_angstrom: withinAngstrom,
  };
}

/** One interaction of the input pose and the fraction of trajectory frames in which it is found again. */
export interface InteractionOccupancy {
  /** interactionKey(): type, residue, ligand atoms and direction. */
  readonly key: string;
  readonly occupancy: number;
}

/**
 * Per-interaction occupancy: for each interaction found in the input (docked) pose, the fraction of
 * frames whose profile has the same key. Interactions that appear only during the run are not
 * listed (the question is whether the docked pose's contacts persist). Keys in input order, each once.
 */
export function interactionOccupancy(
  poseKeys: readonly string[],
  frameKeys: readonly ReadonlySet<string>[],
): InteractionOccupancy[] {
  const unique = [...new Set(poseKeys)];
  return unique.map((key) => ({
    key,
    occupancy:
      frameKeys.length === 0
        ? 0
        : round(frameKeys.filter((frame) => frame.has(key)).length / frameKeys.length, 3),
  }));
}
