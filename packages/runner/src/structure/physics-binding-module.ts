import { join } from "node:path";
import {
  MM_GBSA_CAPS,
  MM_GBSA_SETTINGS,
  type MmGbsaReceptor,
  physicsBindingMethod,
  prepareMmGbsaReceptor,
  scoreMmGbsa,
} from "@svc/science/physics";
import { createReceptorPreparer } from "@svc/science/structure";
import { readDockedPoses } from "./docked-poses.ts";
import type { PhysicsCompoundRecord } from "./physics-modules.ts";
import type { StructureModule } from "./structure-module.ts";

/** What physics_binding decided for one structure: the parameterised receptor and the compounds it rescores, or why none. */
type BindingSetUp =
  | { readonly status: "not_assessed"; readonly reason: string }
  | {
      readonly status: "selected";
      readonly receptor: Extract<MmGbsaReceptor, { status: "prepared" }>;
      /** candidate id → pose file, the best-scored docked compounds up to the cap. */
      readonly selected: ReadonlyMap<string, string>;
      readonly docked: number;
      readonly notDocked: ReadonlyMap<string, string>;
    };

/** The set-up's record in results/physics_binding.json: the receptor's model and the selection, not the maps. */
function recordOf(setUp: BindingSetUp): BindingSetUp {
  if (setUp.status !== "selected") return setUp;
  const { path: _scratch, ...receptor } = setUp.receptor;
  return Object.assign(
    Object.create({
      toJSON: () => ({
        status: setUp.status,
        receptor,
        settings: MM_GBSA_SETTINGS,
        docked: setUp.docked,
        rescored_at_most: MM_GBSA_CAPS.max_compounds_per_structure,
        selected: [...setUp.selected.keys()],
      }),
    }),
    setUp,
  ) as BindingSetUp;
}

/**
 * `physics_binding` (issue 40 item 2): one-frame MM-GBSA rescoring, relative, of the best-scored
 * docked poses — ff14SB receptor (the docking preparation's PDBFixer output, truncated to the
 * pocket), GAFF ligand with MMFF94 charges, OBC2; never a binding free energy. Both profiles, where
 * the category plans it.
 */
export const physicsBindingModule: StructureModule<BindingSetUp, PhysicsCompoundRecord> = {
  id: "physics_binding",
  version: "1.0.0",
  get method() {
    return physicsBindingMethod();
  },
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
    const poses = await readDockedPoses(context.runDir, context.staged.index);
    if (poses.status === "none") return { status: "not_assessed", reason: poses.reason };
    if (poses.ranked.length === 0)
      return { status: "not_assessed", reason: "no docked pose: molecular_docking docked no compound here" };
    // The receptor docking used: the same preparation (same options, so the same bytes; issue 43),
    // the staged reference ligand's residue removed as molecular_docking removes it.
    const ligandResidue = context.staged.entry.ligand;
    const residueName =
      typeof ligandResidue === "string" && /^[A-Za-z0-9]{1,3}:/.test(ligandResidue)
        ? [ligandResidue.split(":")[0]?.toUpperCase() ?? ""]
        : [];
    const prepared = await createReceptorPreparer({ cacheDir: join(context.workDir, "receptor") }).prepare(
      context.staged.path,
      { removeHeterogens: residueName },
    );
    const receptor = await prepareMmGbsaReceptor(prepared.pdbPath, join(context.workDir, "mm-gbsa"));
    if (receptor.status !== "prepared")
      return { status: "not_assessed", reason: `receptor parameterisation (ff14SB): ${receptor.reason}` };
    return recordOf({
      status: "selected",
      receptor,
      selected: new Map(
        poses.ranked
          .slice(0, MM_GBSA_CAPS.max_compounds_per_structure)
          .map((pose) => [pose.candidate_id, pose.pose_file]),
      ),
      docked: poses.ranked.length,
      notDocked: poses.notDocked,
    });
  },
  async assessCompound(context, setUp, compound) {
    const id = compound.row.candidateId;
    const skip = (reason: string): PhysicsCompoundRecord => ({
      candidate_id: id,
      status: "not_assessed",
      reason,
    });
    if (!compound.ok) return skip(compound.error);
    if (setUp.status !== "selected") return skip(setUp.reason);
    const pose = setUp.selected.get(id);
    if (pose === undefined) {
      const notDocked = setUp.notDocked.get(id);
      return skip(
        notDocked !== undefined
          ? `no docked pose: molecular_docking did not dock it (${notDocked})`
          : `cap: not among the ${MM_GBSA_CAPS.max_compounds_per_structure} best-scored docked compounds of this structure (${setUp.docked} docked)`,
      );
    }
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
};
