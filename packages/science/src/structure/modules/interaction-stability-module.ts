import { join } from "node:path";
import {
  MD_STABILITY_CAPS,
  MD_STABILITY_SETTINGS,
  simulatePoseStability,
} from "../../physics/md-stability.ts";
import { interactionStabilityMethod } from "../../physics/md-stability-method.ts";
import { loadRDKit } from "../../rdkit.ts";
import { definePostDockingModule } from "./post-docking-module.ts";

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
  definePostDockingModule({
    id: "interaction_stability",
    version: "1.0.0",
    method: interactionStabilityMethod,
    deepOnlyReason:
      "deep profile only: a short explicit-solvent MD costs minutes of CPU per docked pose (npm run bench -- " +
      "physics); a standard run keeps the docked pose as docking scored it",
    maxCompoundsPerStructure: MD_STABILITY_CAPS.max_compounds_per_structure,
    receptorFolder: "ff14sb",
    receptorUse: "parameterisation",
    settings: MD_STABILITY_SETTINGS,
    capRecord: { atMostKey: "simulated_at_most" },
    async assessPose({ context, receptor, pose, candidateId }) {
      const result = await simulatePoseStability(receptor, join(context.runDir, pose), {
        workDir: join(context.workDir, "md", candidateId.replace(/[^A-Za-z0-9._-]/g, "_")),
        rdkit: await loadRDKit(),
        // One OpenMM thread: with two the same input gave 1.308 and 1.315 Å (the CPU platform's thread
        // partition changes the integration); with one, reruns are identical, as a sealed run promises.
        threads: 1,
        productionPs,
      });
      if (result.status !== "assessed")
        return { status: "not_assessed", reason: result.reason, cpu_seconds: result.cpu_seconds };
      return {
        status: "assessed",
        fields: {
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
        },
      };
    },
  });

export const interactionStabilityModule = createInteractionStabilityModule();
