import { join } from "node:path";
import { defineStructureModule } from "../../define-structure-module.ts";
import {
  MD_STABILITY_CAPS,
  MD_STABILITY_SETTINGS,
  simulatePoseStability,
} from "../../physics/md-stability.ts";
import { interactionStabilityMethod } from "../../physics/md-stability-method.ts";
import { loadRDKit } from "../../rdkit.ts";
import {
  bestDockedPoses,
  dockingReceptorFf14sb,
  type Ff14sbPosesSetUp,
  poseOfCompound,
  selectionRecord,
} from "./best-docked-poses.ts";
import type { PhysicsCompoundRecord } from "./physics-modules.ts";

/** "<key> <occupancy>" per interaction of the docked pose, for the card and report.csv. */
function occupancyText(
  interactions: readonly { readonly key: string; readonly occupancy: number }[],
): string {
  return interactions.map(({ key, occupancy }) => `${key} ${occupancy}`).join("; ");
}

/**
 * `interaction_stability` (issue 40 item 3): pose stability over a short explicit-solvent MD of the
 * best-scored docked poses (science's simulatePoseStability, physics_binding's parameterisation).
 * Deep profile only; a standard run says so for every structure and compound. `productionPs`: the
 * module's default unless a test asks for a shorter trajectory.
 */
export const createInteractionStabilityModule = (
  productionPs: number = MD_STABILITY_SETTINGS.production_ps,
) =>
  defineStructureModule<Ff14sbPosesSetUp, PhysicsCompoundRecord>({
    id: "interaction_stability",
    version: "1.0.0",
    get method() {
      return interactionStabilityMethod();
    },
    riskChannel: "chemistry",
    requiredInputs: ["structures"],
    callsTools: true,
    async assessStructure(context) {
      if (context.mode !== "deep")
        return {
          status: "not_assessed",
          reason:
            "deep profile only: a short explicit-solvent MD costs minutes of CPU per docked pose (npm run bench -- " +
            "physics); a standard run keeps the docked pose as docking scored it",
        };
      const best = await bestDockedPoses(context, MD_STABILITY_CAPS.max_compounds_per_structure);
      if ("reason" in best) return { status: "not_assessed", reason: best.reason };
      // The receptor docking used, parameterised as physics_binding does (ff14SB).
      const receptor = await dockingReceptorFf14sb(context, "ff14sb");
      if (receptor.status !== "prepared")
        return { status: "not_assessed", reason: `receptor parameterisation (ff14SB): ${receptor.reason}` };
      return selectionRecord(
        { status: "selected", receptor, best },
        {
          settings: MD_STABILITY_SETTINGS,
          atMost: { simulated_at_most: MD_STABILITY_CAPS.max_compounds_per_structure },
        },
      );
    },
    perCompound: {
      pooled: false,
      async assess(context, setUp, compound) {
        const id = compound.row.candidateId;
        const skip = (reason: string): PhysicsCompoundRecord => ({
          candidate_id: id,
          status: "not_assessed",
          reason,
        });
        if (!compound.ok) return skip(compound.error);
        if (setUp.status !== "selected") return skip(setUp.reason);
        const found = poseOfCompound(setUp.best, compound);
        if ("reason" in found) return skip(found.reason);
        const pose = found.pose;
        const result = await simulatePoseStability(setUp.receptor, join(context.runDir, pose), {
          workDir: join(context.workDir, "md", id.replace(/[^A-Za-z0-9._-]/g, "_")),
          rdkit: await loadRDKit(),
          // One OpenMM thread: with two the same input gave 1.308 and 1.315 Å (the CPU platform's thread
          // partition changes the integration); with one, reruns are identical, as a sealed run promises.
          threads: 1,
          productionPs,
        });
        if (result.status !== "assessed") return { ...skip(result.reason), cpu_seconds: result.cpu_seconds };
        return {
          candidate_id: id,
          status: "assessed",
          reason: null,
          pose_file: pose,
          what: `pose stability over ${result.production_ps} ps (short explicit-solvent MD; not a binding stability)`,
          production_ps: result.production_ps,
          rmsd_mean_angstrom: result.rmsd.mean_angstrom,
          rmsd_max_angstrom: result.rmsd.max_angstrom,
          fraction_frames_within_2_angstrom: result.rmsd.fraction_within,
          rmsd_per_frame_angstrom: result.rmsd_angstrom,
          interaction_occupancy: occupancyText(result.interactions),
          interactions_of_pose: result.interactions.length,
          atoms: result.system.atoms,
          pocket_residues: result.system.pocket_residues,
          substituted_parameters: result.substituted_parameters,
          threads: result.threads,
          cpu_seconds: result.cpu_seconds,
        };
      },
    },
  });

export const interactionStabilityModule = createInteractionStabilityModule();
