import type { MethodCard } from "../../analysis-module.ts";
import {
  defineStructureModule,
  type StructureContext,
  type StructureModule,
} from "../../define-structure-module.ts";
import type { MmGbsaReceptor } from "../../physics/mm-gbsa.ts";
import {
  bestDockedPoses,
  dockingReceptorFf14sb,
  type Ff14sbPosesSetUp,
  poseOfCompound,
  selectionRecord,
} from "./best-docked-poses.ts";
import type { PhysicsCompoundRecord } from "./physics-modules.ts";

/** One docked pose as a post-docking module's own computation is given it. */
export interface DockedPose {
  readonly context: StructureContext;
  /** The docking receptor parameterised with ff14SB, shared by the structure's poses. */
  readonly receptor: Extract<MmGbsaReceptor, { status: "prepared" }>;
  /** The pose file, relative to the run folder (as results/molecular_docking.json names it). */
  readonly pose: string;
  readonly candidateId: string;
}

/**
 * What the module's computation made of one pose: the record's own fields, in the order the record
 * shows them (after candidate_id, status and reason), or why not with the CPU it spent.
 */
export type PoseAssessment =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | { readonly status: "assessed"; readonly fields: Readonly<Record<string, unknown>> };

/** What a post-docking module states of its own; {@link definePostDockingModule} adds the rest. */
export interface PostDockingModuleDefinition {
  readonly id: string;
  readonly version: string;
  readonly method: () => MethodCard;
  /** Why a run that is not deep assesses nothing (the module's cost, and what a standard run has instead). */
  readonly deepOnlyReason: string;
  /** The best-scored docked compounds it assesses per structure. */
  readonly maxCompoundsPerStructure: number;
  /** The receptor's scratch folder in the structure's work dir. */
  readonly receptorFolder: string;
  /** What the ff14SB receptor is for, naming a failed parameterisation ("receptor <this> (ff14SB): …"). */
  readonly receptorUse: string;
  /** Its settings and how the set-up records the cap: its caps object, or the count under a key of its own. */
  readonly settings: unknown;
  readonly capRecord: { readonly caps: unknown } | { readonly atMostKey: string };
  assessPose(pose: DockedPose): Promise<PoseAssessment>;
}

/**
 * A post-docking module (physics_binding, qmmm_analysis, interaction_stability; issue 40): deep
 * profile only; per structure the best-scored docked poses up to the cap and the docking receptor
 * parameterised with ff14SB (best-docked-poses.ts), recorded by selectionRecord; per compound, in
 * portfolio order, the module's own computation of its pose, or why the compound has none (not
 * parsed, no set-up, not docked, past the cap).
 */
export function definePostDockingModule(
  definition: PostDockingModuleDefinition,
): StructureModule<Ff14sbPosesSetUp, PhysicsCompoundRecord> {
  const cap = definition.maxCompoundsPerStructure;
  const { capRecord } = definition;
  const recorded =
    "caps" in capRecord
      ? { settings: definition.settings, caps: capRecord.caps }
      : { settings: definition.settings, atMost: { [capRecord.atMostKey]: cap } };
  return defineStructureModule<Ff14sbPosesSetUp, PhysicsCompoundRecord>({
    id: definition.id,
    version: definition.version,
    method: definition.method,
    riskChannel: "chemistry",
    requiredInputs: ["structures"],
    callsTools: true,
    async assessStructure(context) {
      // issue 40's Done when: a deep run computes it, a standard run says it is deep only and why
      if (context.mode !== "deep") return { status: "not_assessed", reason: definition.deepOnlyReason };
      const best = await bestDockedPoses(context, cap);
      if ("reason" in best) return { status: "not_assessed", reason: best.reason };
      const receptor = await dockingReceptorFf14sb(context, definition.receptorFolder);
      if (receptor.status !== "prepared")
        return {
          status: "not_assessed",
          reason: `receptor ${definition.receptorUse} (ff14SB): ${receptor.reason}`,
        };
      return selectionRecord({ status: "selected", receptor, best }, recorded);
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
        const outcome = await definition.assessPose({
          context,
          receptor: setUp.receptor,
          pose: found.pose,
          candidateId: id,
        });
        if (outcome.status !== "assessed")
          return { ...skip(outcome.reason), cpu_seconds: outcome.cpu_seconds };
        return { candidate_id: id, status: "assessed", reason: null, ...outcome.fields };
      },
    },
  });
}
