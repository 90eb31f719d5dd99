import { join } from "node:path";
import { QM_CLUSTER_SETTINGS } from "../../physics/qm-cluster.ts";
import { QM_CLUSTER_CAPS, scoreQmCluster } from "../../physics/qm-cluster-energy.ts";
import { qmmmAnalysisMethod } from "../../physics/qm-cluster-method.ts";
import { definePostDockingModule } from "./post-docking-module.ts";

/**
 * `qmmm_analysis` (issue 40 item 5), as what it is: the GFN2 QM-cluster interaction energy of the
 * best-scored docked pose of the top compounds with their first-shell residues (physics/qm-cluster.ts),
 * never a binding free energy and not QM/MM (the method card says why). Deep profile only.
 */
export const qmmmAnalysisModule = definePostDockingModule({
  id: "qmmm_analysis",
  version: "1.0.0",
  method: qmmmAnalysisMethod,
  deepOnlyReason:
    "deep profile only: three GFN2-xTB single points of a 300–1,000-atom cluster cost tens of CPU-s a " +
    `compound (the method card's measured cost); a standard run ranks poses by the Vina score`,
  maxCompoundsPerStructure: QM_CLUSTER_CAPS.max_compounds_per_structure,
  receptorFolder: "ff14sb",
  // The cluster's residue charges come from the ff14SB parameterisation.
  receptorUse: "residue charges",
  settings: QM_CLUSTER_SETTINGS,
  capRecord: { caps: QM_CLUSTER_CAPS },
  async assessPose({ context, receptor, pose }) {
    const score = await scoreQmCluster(receptor, join(context.runDir, pose), join(context.workDir, "xtb"));
    if (score.status !== "assessed")
      return { status: "not_assessed", reason: score.reason, cpu_seconds: score.cpu_seconds };
    // The energy and what it is first: the report's panel shows a record's leaves in this order.
    return {
      status: "assessed",
      fields: {
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
      },
    };
  },
});
