import { join } from "node:path";
import {
  defineStructureModule,
  type StructureCompound,
  type StructureContext,
} from "../../define-structure-module.ts";
import { auditLigandPhysics, CONFORMER_SEARCH, type LigandPhysics } from "../../physics/ligand-physics.ts";
import { PHYSICS_CAPS, physicsAuditMethod, quantumTargetAuditMethod } from "../../physics/physics-methods.ts";
import { poseOfCompound } from "./best-docked-poses.ts";
import { type DockedPoses, readDockedPoses } from "./docked-poses.ts";

/** What a physics module decided for one structure: which docked compounds it audits, or why none. */
type PhysicsSetUp =
  | { readonly status: "not_assessed"; readonly reason: string }
  | {
      readonly status: "selected";
      readonly profile: "standard" | "deep";
      /** candidate id → pose file, the best-scored docked compounds up to the cap. */
      readonly selected: ReadonlyMap<string, string>;
      readonly docked: number;
      readonly cap: number;
      readonly notDocked: ReadonlyMap<string, string>;
    };

export interface PhysicsCompoundRecord {
  readonly candidate_id: string;
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly [key: string]: unknown;
}

/**
 * One audit per pose file and run: physics_audit's strain audit computes the electronic part too,
 * so quantum_target_audit (after it in structure-modules.ts) reads it instead of running xtb again.
 */
const audits = new Map<string, Promise<LigandPhysics>>();

function profileOf(mode: string): "standard" | "deep" {
  return mode === "deep" ? "deep" : "standard";
}

function selection(poses: DockedPoses, profile: "standard" | "deep"): PhysicsSetUp {
  if (poses.status === "none") return { status: "not_assessed", reason: poses.reason };
  const cap = PHYSICS_CAPS.max_compounds_per_structure;
  return {
    status: "selected",
    profile,
    selected: new Map(poses.ranked.slice(0, cap).map((pose) => [pose.candidate_id, pose.pose_file])),
    docked: poses.ranked.length,
    cap,
    notDocked: poses.notDocked,
  };
}

/** The set-up's record in results/<module>.json: counts, not the selection's maps. */
function setUpRecord(setUp: PhysicsSetUp) {
  if (setUp.status !== "selected") return setUp;
  return Object.assign(
    Object.create({
      toJSON: () => ({
        status: setUp.status,
        profile: setUp.profile,
        docked: setUp.docked,
        audited_at_most: setUp.cap,
        selected: [...setUp.selected.keys()],
      }),
    }),
    setUp,
  ) as PhysicsSetUp;
}

/** Why a compound is not audited, or its pose file: the post-docking modules' reasons (best-docked-poses.ts). */
function poseOf(setUp: PhysicsSetUp, compound: StructureCompound): { pose: string } | { reason: string } {
  if (!compound.ok) return { reason: compound.error };
  if (setUp.status !== "selected") return { reason: setUp.reason };
  return poseOfCompound(setUp, compound);
}

function audit(
  context: StructureContext,
  pose: string,
  parts: "strain" | "electronic",
): Promise<LigandPhysics> {
  const path = join(context.runDir, pose);
  const profile = profileOf(context.mode);
  const key = `${path}\u0000${profile}`;
  const cached = audits.get(key);
  if (cached !== undefined) return cached;
  const running = auditLigandPhysics(path, {
    workDir: join(context.workDir, "physics"),
    parts,
    cpuBudgetMs:
      parts === "strain" ? PHYSICS_CAPS.strain_cpu_budget_ms[profile] : PHYSICS_CAPS.electronic_cpu_budget_ms,
    search: CONFORMER_SEARCH[profile],
  });
  // Only the strain audit holds both parts: it is the one a later module may reuse.
  if (parts === "strain") audits.set(key, running);
  return running;
}

/** `physics_audit` (issue 40 item 1): the GFN2-xTB strain of the best-scored docked poses, PM7 as the check; deep only. */
export const physicsAuditModule = defineStructureModule<PhysicsSetUp, PhysicsCompoundRecord>({
  id: "physics_audit",
  version: "1.0.0",
  method: physicsAuditMethod,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    if (profileOf(context.mode) !== "deep")
      return {
        status: "not_assessed",
        reason:
          "deep profile only: the conformer search costs 10–85 CPU-s a ligand (npm run bench -- physics); a " +
          "standard run computes quantum_target_audit's gap and charges, not the strain",
      };
    return setUpRecord(selection(await readDockedPoses(context.runDir, context.staged.index), "deep"));
  },
  perCompound: {
    pooled: false,
    async assess(context, setUp, compound) {
      const id = compound.row.candidateId;
      const found = poseOf(setUp, compound);
      if ("reason" in found) return { candidate_id: id, status: "not_assessed", reason: found.reason };
      const result = await audit(context, found.pose, "strain");
      if (result.status !== "assessed" || result.strain === null)
        return {
          candidate_id: id,
          status: "not_assessed",
          reason: result.status === "not_assessed" ? result.reason : "no strain computed",
          cpu_seconds: result.cpu_seconds,
        };
      return {
        candidate_id: id,
        status: "assessed",
        reason: null,
        pose_file: found.pose,
        strain_kcal_mol: result.strain.gfn2_kcal_mol,
        pm7_strain_kcal_mol: result.strain.pm7_kcal_mol,
        relaxation_kcal_mol: result.local_minimum.relaxation_kcal_mol,
        global_minimum_from: result.strain.global_minimum_from,
        conformers_embedded: result.strain.conformers_embedded,
        conformers_optimised: result.strain.conformers_optimised,
        conformers_failed: result.strain.conformers_failed,
        budget_exhausted: result.strain.budget_exhausted,
        search: result.strain.search,
        heavy_atoms: result.heavy_atoms,
        net_charge: result.net_charge,
        methods: result.methods,
        cpu_seconds: result.cpu_seconds,
      };
    },
  },
});

/** `quantum_target_audit` (issue 40 item 1): GFN2-xTB gap, charges and dipole of the relaxed docked ligand, PM7 as the check. */
export const quantumTargetAuditModule = defineStructureModule<PhysicsSetUp, PhysicsCompoundRecord>({
  id: "quantum_target_audit",
  version: "1.0.0",
  method: quantumTargetAuditMethod,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    return setUpRecord(
      selection(await readDockedPoses(context.runDir, context.staged.index), profileOf(context.mode)),
    );
  },
  perCompound: {
    pooled: false,
    async assess(context, setUp, compound) {
      const id = compound.row.candidateId;
      const found = poseOf(setUp, compound);
      if ("reason" in found) return { candidate_id: id, status: "not_assessed", reason: found.reason };
      const profile = profileOf(context.mode);
      const reused = audits.get(`${join(context.runDir, found.pose)}\u0000${profile}`);
      const result = await (reused ?? audit(context, found.pose, "electronic"));
      if (result.status !== "assessed")
        return {
          candidate_id: id,
          status: "not_assessed",
          reason: result.reason,
          cpu_seconds: result.cpu_seconds,
        };
      const charges = result.local_minimum.charges;
      return {
        candidate_id: id,
        status: "assessed",
        reason: null,
        pose_file: found.pose,
        gfn2_gap_ev: result.local_minimum.gfn2_gap_ev,
        pm7_gap_ev: result.pm7.gap_ev,
        pm7_reason: result.pm7.reason,
        dipole_debye: result.local_minimum.dipole_debye,
        pm7_dipole_debye: result.pm7.dipole_debye,
        charges,
        reactivity: result.reactivity,
        charge_range: charges === null ? null : [charges.most_negative.charge, charges.most_positive.charge],
        heavy_atoms: result.heavy_atoms,
        net_charge: result.net_charge,
        methods: result.methods,
        // Shared with physics_audit when it ran first: the CPU is counted there, not twice.
        cpu_seconds: reused === undefined ? result.cpu_seconds : 0,
        computed_by: reused === undefined ? "quantum_target_audit" : "physics_audit (the same relaxation)",
      };
    },
  },
});
