import { join } from "node:path";
import type { StructureCompound, StructureContext } from "../../define-structure-module.ts";
import { type MmGbsaReceptor, prepareMmGbsaReceptor } from "../../physics/mm-gbsa.ts";
import { createReceptorPreparer, type PreparedReceptor } from "../receptor-preparer.ts";
import { readDockedPoses } from "./docked-poses.ts";

/**
 * The best-scored docked poses a post-docking module works on (physics_binding, qmmm_analysis,
 * interaction_stability): at most `cap` compounds, best Vina score first, and what docking said of
 * those it did not dock — so each module's compounds are told apart the same way.
 */
export interface BestDockedPoses {
  /** candidate id → pose file (relative to the run folder), the best-scored docked compounds up to the cap. */
  readonly selected: ReadonlyMap<string, string>;
  readonly docked: number;
  readonly notDocked: ReadonlyMap<string, string>;
  readonly cap: number;
}

/** The structure's best docked poses, or why there are none (no docking result, nothing docked). */
export async function bestDockedPoses(
  context: StructureContext,
  cap: number,
): Promise<BestDockedPoses | { readonly reason: string }> {
  const poses = await readDockedPoses(context.runDir, context.staged.index);
  if (poses.status === "none") return { reason: poses.reason };
  if (poses.ranked.length === 0)
    return { reason: "no docked pose: molecular_docking docked no compound here" };
  return {
    selected: new Map(poses.ranked.slice(0, cap).map((pose) => [pose.candidate_id, pose.pose_file])),
    docked: poses.ranked.length,
    notDocked: poses.notDocked,
    cap,
  };
}

/** The compound's pose file, or why the module does not assess it (not parsed, not docked, past the cap). */
export function poseOfCompound(
  best: BestDockedPoses,
  compound: StructureCompound,
): { readonly pose: string } | { readonly reason: string } {
  if (!compound.ok) return { reason: compound.error };
  const id = compound.row.candidateId;
  const pose = best.selected.get(id);
  if (pose !== undefined) return { pose };
  const notDocked = best.notDocked.get(id);
  if (notDocked !== undefined)
    return { reason: `no docked pose: molecular_docking did not dock it (${notDocked})` };
  return {
    reason: `cap: not among the ${best.cap} best-scored docked compounds of this structure (${best.docked} docked)`,
  };
}

/**
 * The receptor as molecular_docking prepared it — the same preparation and options, so the same
 * bytes (issue 43) — with the staged reference ligand's residue ("RES:chain:number") removed.
 */
export function prepareDockingReceptor(context: StructureContext): Promise<PreparedReceptor> {
  const ligandResidue = context.staged.entry.ligand;
  const residueName =
    typeof ligandResidue === "string" && /^[A-Za-z0-9]{1,3}:/.test(ligandResidue)
      ? [ligandResidue.split(":")[0]?.toUpperCase() ?? ""]
      : [];
  return createReceptorPreparer({ cacheDir: join(context.workDir, "receptor") }).prepare(
    context.staged.path,
    {
      removeHeterogens: residueName,
    },
  );
}

/** The docking receptor parameterised with ff14SB (physics_binding's model), in `folder` of the work dir. */
export async function dockingReceptorFf14sb(
  context: StructureContext,
  folder: string,
): Promise<MmGbsaReceptor> {
  const prepared = await prepareDockingReceptor(context);
  return prepareMmGbsaReceptor(prepared.pdbPath, join(context.workDir, folder));
}

/** A post-docking module's set-up per structure: the ff14SB receptor and the poses it works on, or why none. */
export type Ff14sbPosesSetUp =
  | { readonly status: "not_assessed"; readonly reason: string }
  | {
      readonly status: "selected";
      readonly receptor: Extract<MmGbsaReceptor, { status: "prepared" }>;
      /** The best-scored docked compounds up to the cap, and what docking said of the others. */
      readonly best: BestDockedPoses;
    };

/**
 * The set-up as its results/<module>.json records it: the receptor's model (not its scratch path),
 * the module's settings (and caps, or its "at most" count) and the selection, not the maps.
 */
export function selectionRecord(
  setUp: Ff14sbPosesSetUp,
  fields: {
    readonly settings: unknown;
    readonly caps?: unknown;
    readonly atMost?: Readonly<Record<string, number>>;
  },
): Ff14sbPosesSetUp {
  if (setUp.status !== "selected") return setUp;
  const { path: _scratch, ...receptor } = setUp.receptor;
  return Object.assign(
    Object.create({
      toJSON: () => ({
        status: setUp.status,
        receptor,
        settings: fields.settings,
        ...(fields.caps === undefined ? {} : { caps: fields.caps }),
        docked: setUp.best.docked,
        ...fields.atMost,
        selected: [...setUp.best.selected.keys()],
      }),
    }),
    setUp,
  ) as Ff14sbPosesSetUp;
}
