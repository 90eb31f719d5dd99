import { join } from "node:path";
import { defineStructureModule } from "../../define-structure-module.ts";
import { MM_GBSA_CAPS, MM_GBSA_SETTINGS, scoreMmGbsa } from "../../physics/mm-gbsa.ts";
import { physicsBindingMethod } from "../../physics/mm-gbsa-method.ts";
import {
  bestDockedPoses,
  dockingReceptorFf14sb,
  type Ff14sbPosesSetUp,
  poseOfCompound,
  selectionRecord,
} from "./best-docked-poses.ts";
import type { PhysicsCompoundRecord } from "./physics-modules.ts";

/**
 * `physics_binding` (issue 40 item 2): one-frame MM-GBSA rescoring, relative, of the best-scored
 * docked poses — ff14SB receptor (the docking preparation's PDBFixer output, truncated to the
 * pocket), GAFF ligand with MMFF94 charges, OBC2; never a binding free energy. Both profiles, where
 * the category plans it.
 */
export const physicsBindingModule = defineStructureModule<Ff14sbPosesSetUp, PhysicsCompoundRecord>({
  id: "physics_binding",
  version: "1.0.0",
  method: physicsBindingMethod,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    // issue 40's Done when: a deep run computes it, a standard run says it is deep only (its cost,
    // 9–13 CPU-s a pose, would double a standard structure run's)
    if (context.mode !== "deep")
      return {
        status: "not_assessed",
        reason:
          "deep profile only: MM-GBSA rescoring costs 9–13 CPU-s a docked pose (npm run bench -- physics); a " +
          "standard run ranks poses by the Vina score",
      };
    const best = await bestDockedPoses(context, MM_GBSA_CAPS.max_compounds_per_structure);
    if ("reason" in best) return { status: "not_assessed", reason: best.reason };
    // The receptor docking used, parameterised as physics_binding does (ff14SB).
    const receptor = await dockingReceptorFf14sb(context, "mm-gbsa");
    if (receptor.status !== "prepared")
      return { status: "not_assessed", reason: `receptor parameterisation (ff14SB): ${receptor.reason}` };
    return selectionRecord(
      { status: "selected", receptor, best },
      { settings: MM_GBSA_SETTINGS, atMost: { rescored_at_most: MM_GBSA_CAPS.max_compounds_per_structure } },
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
      const [score] = await scoreMmGbsa(setUp.receptor, [join(context.runDir, pose)]);
      if (score === undefined || score.status !== "assessed")
        return {
          ...skip(score?.reason ?? "no score"),
          cpu_seconds: score?.cpu_seconds ?? 0,
        };
      return {
        candidate_id: id,
        status: "assessed",
        reason: null,
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
      };
    },
  },
});
