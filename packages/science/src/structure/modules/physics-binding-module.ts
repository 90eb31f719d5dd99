import { join } from "node:path";
import { MM_GBSA_CAPS, MM_GBSA_SETTINGS, scoreMmGbsa } from "../../physics/mm-gbsa.ts";
import { physicsBindingMethod } from "../../physics/mm-gbsa-method.ts";
import { definePostDockingModule } from "./post-docking-module.ts";

/**
 * `physics_binding` (issue 40 item 2): one-frame MM-GBSA rescoring, relative, of the best-scored
 * docked poses — ff14SB receptor (the docking preparation's PDBFixer output, truncated to the
 * pocket), GAFF ligand with MMFF94 charges, OBC2; never a binding free energy. Both profiles, where
 * the category plans it.
 */
export const physicsBindingModule = definePostDockingModule({
  id: "physics_binding",
  version: "1.0.0",
  method: physicsBindingMethod,
  // Its cost, 9–13 CPU-s a pose, would double a standard structure run's.
  deepOnlyReason:
    "deep profile only: MM-GBSA rescoring costs 9–13 CPU-s a docked pose (npm run bench -- physics); a " +
    "standard run ranks poses by the Vina score",
  maxCompoundsPerStructure: MM_GBSA_CAPS.max_compounds_per_structure,
  receptorFolder: "mm-gbsa",
  receptorUse: "parameterisation",
  settings: MM_GBSA_SETTINGS,
  capRecord: { atMostKey: "rescored_at_most" },
  async assessPose({ context, receptor, pose }) {
    const [score] = await scoreMmGbsa(receptor, [join(context.runDir, pose)]);
    if (score === undefined || score.status !== "assessed")
      return {
        status: "not_assessed",
        reason: score?.reason ?? "no score",
        cpu_seconds: score?.cpu_seconds ?? 0,
      };
    return {
      status: "assessed",
      fields: {
        pose_file: pose,
        mm_gbsa_relative_kcal_mol: score.score_kcal_mol,
        score_kind: "MM-GBSA rescoring, relative (one frame, no entropy; not a binding free energy)",
        mm_kcal_mol: score.mm_kcal_mol,
        solvation_kcal_mol: score.solvation_kcal_mol,
        ligand_shift_angstrom: score.ligand_shift_angstrom,
        pocket_residues: score.pocket_residues,
        substituted_parameters: score.substituted_parameters,
        missing_torsions: score.missing_torsions,
        charges: score.charges,
        heavy_atoms: score.heavy_atoms,
        net_charge: score.net_charge,
        cpu_seconds: score.cpu_seconds,
      },
    };
  },
});
