import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { round } from "../numeric/round.ts";
import type { RDKit } from "../rdkit.ts";
import { interactionKey } from "../structure/interactions/interaction-keys.ts";
import { profileInteractions } from "../structure/interactions/profile-interactions.ts";
import { readLigandMolblock } from "../structure/interactions/read-ligand.ts";
import { parsePdb } from "../structure/parse-pdb.ts";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import type { StructureAtom } from "../structure/structure-atom.ts";
import { STRUCTURE_PYTHON } from "../structure/tool-versions.ts";
import type { Vec3 } from "../structure/vec3.ts";
import type { MmGbsaReceptor } from "./mm-gbsa.ts";
import {
  type InteractionOccupancy,
  interactionOccupancy,
  type RmsdSummary,
  summariseRmsd,
} from "./pose-stability-summary.ts";

const SCRIPT = fileURLToPath(new URL("./python/md_stability.py", import.meta.url));

/**
 * The MD protocol's settings recorded in every result (issue 40 item 3); md_stability.py holds the
 * rest (TIP3P, PME 9 Å, HMR 4 fs, 300 K, the equilibration stages and restraints, the 10 Å pocket with
 * its edge beyond 6 Å restrained). `production_ps` is what a run simulates per compound; `seed` fixes
 * velocities, thermostat and barostat.
 */
export const MD_STABILITY_SETTINGS = { production_ps: 10, seed: 2015 } as const;

/**
 * How many best-docked compounds per structure get the MD, and one compound's CPU budget. Measured:
 * see MD_STABILITY_COST (md-stability-cost.ts); the budget is about twice the measured cost so that a
 * larger pocket or ligand still fits, and the cap bounds a structure at 3 × that.
 */
export const MD_STABILITY_CAPS = {
  max_compounds_per_structure: 3,
  compound_cpu_budget_ms: 1_800_000,
} as const;

export type PoseStability =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "assessed";
      /** "pose stability over N ps": never a binding stability or affinity. */
      readonly production_ps: number;
      readonly frame_ps: number;
      /** Ligand heavy-atom RMSD (Å) to the input pose per production frame, after aligning on the pocket Cα. */
      readonly rmsd_angstrom: readonly number[];
      readonly rmsd: RmsdSummary;
      /** The input pose's interactions (PLIP criteria) and the fraction of frames that keep each. */
      readonly interactions: readonly InteractionOccupancy[];
      readonly system: {
        readonly atoms: number;
        readonly waters: number;
        readonly ions: number;
        readonly pocket_residues: number;
        readonly restrained_edge_residues: number;
        readonly box_angstrom: readonly number[];
      };
      readonly substituted_parameters: readonly string[];
      readonly missing_torsions: readonly string[];
      readonly threads: number;
      readonly versions: Readonly<Record<string, string>>;
      /** CPU seconds per phase as the script measured them (build, minimise, equilibrate, production, total). */
      readonly phase_cpu_seconds: Readonly<Record<string, number>>;
      readonly settings: { readonly production_ps: number; readonly seed: number };
      /** The whole process's CPU (start-up, parameterisation and MD), what the compound cost the run. */
      readonly cpu_seconds: number;
    };

interface ScriptResult {
  readonly error?: string;
  readonly rmsd_angstrom: number[];
  readonly frame_ps: number;
  readonly production_ps: number;
  readonly pocket_pdb: string;
  readonly ligand_molblock: string;
  readonly atoms: number;
  readonly waters: number;
  readonly ions: number;
  readonly pocket_residues: number;
  readonly restrained_edge_residues: number;
  readonly box_angstrom: number[];
  readonly substituted_parameters: string[];
  readonly missing_torsions: string[];
  readonly cpu_seconds: Record<string, number>;
  readonly threads: number;
  readonly versions: Record<string, string>;
}

interface Frames {
  readonly pocket: Vec3[][];
  readonly ligand: Vec3[][];
}

export interface PoseStabilityOptions {
  readonly workDir: string;
  readonly rdkit: RDKit;
  readonly productionPs?: number;
  /** OpenMM CPU threads (the module uses 1: more make the trajectory differ run to run). */
  readonly threads?: number;
  readonly seed?: number;
  readonly cpuBudgetMs?: number;
}

/** The interaction keys of one snapshot: the pocket and ligand atoms at the frame's positions. */
function keysAt(
  pocket: readonly StructureAtom[],
  ligand: ReturnType<typeof readLigandMolblock>,
  pocketXyz: readonly Vec3[],
  ligandXyz: readonly Vec3[],
): Set<string> {
  const atoms = pocket.map((atom, i) => ({ ...atom, position: pocketXyz[i] ?? atom.position }));
  const posed = {
    ...ligand,
    atoms: ligand.atoms.map((atom, i) => ({ ...atom, position: ligandXyz[i] ?? atom.position })),
  };
  return new Set(profileInteractions(atoms, posed).interactions.map(interactionKey));
}

/**
 * Short explicit-solvent MD of one posed ligand (SDF, first molecule) in a receptor parameterised by
 * prepareMmGbsaReceptor (the same ff14SB/GAFF set-up as physics_binding), then the RMSD summary and the
 * input pose's interaction occupancy over the frames (the build's PLIP-criteria profiler on every
 * frame). Never throws: a pose it cannot simulate is `not_assessed` with the reason.
 */
export async function simulatePoseStability(
  receptor: Extract<MmGbsaReceptor, { status: "prepared" }>,
  ligandPath: string,
  options: PoseStabilityOptions,
): Promise<PoseStability> {
  const productionPs = options.productionPs ?? MD_STABILITY_SETTINGS.production_ps;
  const seed = options.seed ?? MD_STABILITY_SETTINGS.seed;
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const budgetMs = options.cpuBudgetMs ?? MD_STABILITY_CAPS.compound_cpu_budget_ms;
  const cpuSeconds = cpuSecondsOf(budgetMs);
  await mkdir(options.workDir, { recursive: true });
  const run = await runTool(
    STRUCTURE_PYTHON,
    [SCRIPT, receptor.path, ligandPath, options.workDir, String(productionPs), String(seed), String(threads)],
    { cpuSeconds, timeoutMs: budgetMs * 10 },
  );
  const cpu = round((run.cpuMs ?? 0) / 1000, 2);
  const failure = describeToolFailure("md_stability.py", run, budgetMs * 10, cpuSeconds);
  if (failure !== null) return { status: "not_assessed", reason: failure, cpu_seconds: cpu };
  const line = run.stdout.split("\n").find((text) => text.startsWith("{"));
  if (line === undefined)
    return { status: "not_assessed", reason: "md_stability.py printed no result", cpu_seconds: cpu };
  const result = JSON.parse(line) as ScriptResult;
  if (result.error !== undefined) return { status: "not_assessed", reason: result.error, cpu_seconds: cpu };
  const rmsd = summariseRmsd(result.rmsd_angstrom);
  if (rmsd === null)
    return { status: "not_assessed", reason: "the trajectory gave no finite RMSD", cpu_seconds: cpu };
  const frames = JSON.parse(await readFile(join(options.workDir, "frames.json"), "utf8")) as Frames;
  const pocket = parsePdb(await readFile(result.pocket_pdb, "utf8")).atoms;
  const ligand = readLigandMolblock(options.rdkit, result.ligand_molblock);
  if (frames.pocket[0]?.length !== pocket.length)
    return {
      status: "not_assessed",
      reason: `the pocket PDB has ${pocket.length} atoms, the frames ${frames.pocket[0]?.length ?? 0}`,
      cpu_seconds: cpu,
    };
  // The input pose's interactions: the pocket PDB and the molblock hold the input coordinates.
  const poseKeys = keysAt(
    pocket,
    ligand,
    pocket.map((atom) => atom.position),
    ligand.atoms.map((atom) => atom.position),
  );
  const frameKeys = frames.pocket.map((pocketXyz, i) =>
    keysAt(pocket, ligand, pocketXyz, frames.ligand[i] ?? []),
  );
  return {
    status: "assessed",
    production_ps: result.production_ps,
    frame_ps: result.frame_ps,
    rmsd_angstrom: result.rmsd_angstrom,
    rmsd,
    interactions: interactionOccupancy([...poseKeys], frameKeys),
    system: {
      atoms: result.atoms,
      waters: result.waters,
      ions: result.ions,
      pocket_residues: result.pocket_residues,
      restrained_edge_residues: result.restrained_edge_residues,
      box_angstrom: result.box_angstrom,
    },
    substituted_parameters: result.substituted_parameters,
    missing_torsions: result.missing_torsions,
    threads: result.threads,
    versions: result.versions,
    phase_cpu_seconds: result.cpu_seconds,
    settings: { production_ps: productionPs, seed },
    cpu_seconds: cpu,
  };
}
