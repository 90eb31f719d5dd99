import { join } from "node:path";
import { defineStructureModule } from "../../define-structure-module.ts";
import { QM_CLUSTER_SETTINGS } from "../../physics/qm-cluster.ts";
import { QM_CLUSTER_CAPS, scoreQmCluster } from "../../physics/qm-cluster-energy.ts";
import { qmmmAnalysisMethod } from "../../physics/qm-cluster-method.ts";
import {
  bestDockedPoses,
  dockingReceptorFf14sb,
  type Ff14sbPosesSetUp,
  poseOfCompound,
  selectionRecord,
} from "./best-docked-poses.ts";
import type { PhysicsCompoundRecord } from "./physics-modules.ts";

/**
 * `qmmm_analysis` (issue 40 item 5), as what it is: the GFN2 QM-cluster interaction energy of the
 * best-scored docked pose of the top compounds with their first-shell residues (physics/qm-cluster.ts),
 * never a binding free energy and not QM/MM (the method card says why). Deep profile only.
 */
export const qmmmAnalysisModule = defineStructureModule<Ff14sbPosesSetUp, PhysicsCompoundRecord>({
  id: "qmmm_analysis",
  version: "1.0.0",
  method: qmmmAnalysisMethod,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    if (context.mode !== "deep")
      return {
        status: "not_assessed",
        reason:
          "deep profile only: three GFN2-xTB single points of a 300–1,000-atom cluster cost tens of CPU-s a " +
          `compound (the method card's measured cost); a standard run ranks poses by the Vina score`,
      };
    const best = await bestDockedPoses(context, QM_CLUSTER_CAPS.max_compounds_per_structure);
    if ("reason" in best) return { status: "not_assessed", reason: best.reason };
    // The receptor docking used, parameterised as physics_binding does (ff14SB).
    const receptor = await dockingReceptorFf14sb(context, "ff14sb");
    if (receptor.status !== "prepared")
      return { status: "not_assessed", reason: `receptor residue charges (ff14SB): ${receptor.reason}` };
    return selectionRecord(
      { status: "selected", receptor, best },
      { settings: QM_CLUSTER_SETTINGS, caps: QM_CLUSTER_CAPS },
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
      const score = await scoreQmCluster(
        setUp.receptor,
        join(context.runDir, pose),
        join(context.workDir, "xtb"),
      );
      if (score.status !== "assessed") return { ...skip(score.reason), cpu_seconds: score.cpu_seconds };
      // The energy and what it is first: the report's panel shows a record's leaves in this order.
      return {
        candidate_id: id,
        status: "assessed",
        reason: null,
        interaction_energy_kcal_mol: score.interaction_energy_kcal_mol,
        energy_kind: score.energy_kind,
        method: score.method,
        pose_file: pose,
        cluster_atoms: score.cluster_atoms,
        pocket_residue_count: score.pocket_residues.length,
        pocket_residues: score.pocket_residues,
        hydrogen_caps: score.hydrogen_caps,
        pocket_charge: score.pocket_charge,
        ligand_charge: score.ligand_charge,
        cutoff_angstrom: score.cutoff_angstrom,
        cpu_seconds: score.cpu_seconds,
      };
    },
  },
});
