import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { round } from "../numeric/round.ts";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import { STRUCTURE_PYTHON } from "../structure/tool-versions.ts";

const SCRIPT = fileURLToPath(new URL("./python/mmgbsa.py", import.meta.url));

/**
 * The MM-GBSA set-up (issue 40 item 2), recorded in every result: receptor residues with an atom
 * within `pocket_cutoff_angstrom` of the ligand, at most `max_iterations` of restrained L-BFGS.
 * mmgbsa.py holds the force fields, the restraint (10 kcal/mol/Å² on every heavy atom) and OBC2.
 */
export const MM_GBSA_SETTINGS = { pocket_cutoff_angstrom: 10, max_iterations: 200 } as const;

/**
 * CPU time of one receptor's parameterisation (ff14SB, once per structure) and of one ligand's
 * score; and how many best-docked compounds per structure are rescored. Measured with
 * `npm run bench -- physics --only=physics_binding` (2026-12-02, load 19–26 on 2 cores): 9.4–12.6
 * CPU-s per docked DHFR pose (1,231–1,397 pocket atoms, the process's start-up included), 1.5 CPU-s
 * for the 3,013-atom receptor; mm-gbsa.validation.test.ts: 7–13 CPU-s per ligand's own share. The
 * budgets leave room for larger pockets and ligands; the cap bounds a structure at 20 × 60 CPU-s.
 */
export const MM_GBSA_CAPS = {
  max_compounds_per_structure: 20,
  receptor_cpu_budget_ms: 120_000,
  ligand_cpu_budget_ms: 60_000,
} as const;

export type MmGbsaReceptor =
  | { readonly status: "failed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "prepared";
      /** ParmEd structure of the parameterised protein (pickle, the scratch dir's). */
      readonly path: string;
      readonly atoms: number;
      readonly residues: number;
      /** Residues left out of the MM model (waters, ions, cofactors: no ff14SB template), by name. */
      readonly dropped: Readonly<Record<string, number>>;
      /** Bonds longer than 3 Å (uncapped chain breaks) left out with their angles and torsions. */
      readonly breaks: number;
      /**
       * Terminal groups added in the MM model (not the docking receptor) where leaving a heterogen out
       * made a residue a chain end without one (python/chain_ends.py), one line each: "THR B190: …".
       */
      readonly repairs: readonly string[];
      readonly forcefield: string;
      readonly cpu_seconds: number;
    };

export type MmGbsaScore =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "assessed";
      /** E(complex) − E(receptor) − E(ligand), kcal/mol, one minimised frame: relative, not a ΔG. */
      readonly score_kcal_mol: number;
      /** Coulomb + Lennard-Jones part of the score (OpenMM NonbondedForce). */
      readonly mm_kcal_mol: number;
      /** OBC2 polar solvation + ACE surface term part of the score (OpenMM GBSAOBCForce). */
      readonly solvation_kcal_mol: number;
      readonly heavy_atoms: number;
      readonly net_charge: number;
      readonly pocket_residues: number;
      readonly pocket_atoms: number;
      /** How far the restrained minimisation moved the ligand's heavy atoms (RMSD, Å). */
      readonly ligand_shift_angstrom: number;
      /** GAFF parameters taken from a same-element analogue ("wanted <- used"), parmchk-like. */
      readonly substituted_parameters: readonly string[];
      /** Torsions GAFF has no parameter for even by analogy: left out. */
      readonly missing_torsions: readonly string[];
      readonly charges: "MMFF94 (RDKit), standing in for AM1-BCC";
      readonly settings: typeof MM_GBSA_SETTINGS;
      readonly cpu_seconds: number;
    };

interface ScriptScore {
  readonly ligand: string;
  readonly error?: string;
  readonly score_kcal_mol?: number;
  readonly terms?: Readonly<Record<string, number>>;
  readonly heavy_atoms?: number;
  readonly net_charge?: number;
  readonly pocket_residues?: number;
  readonly pocket_atoms?: number;
  readonly ligand_heavy_rmsd_after_minimisation?: number;
  readonly substituted_parameters?: readonly string[];
  readonly missing_torsions?: readonly string[];
}

/** Parameterises a receptor (PDB with hydrogens) with ff14SB once; never throws. */
export async function prepareMmGbsaReceptor(
  pdbPath: string,
  workDir: string,
  cpuBudgetMs: number = MM_GBSA_CAPS.receptor_cpu_budget_ms,
): Promise<MmGbsaReceptor> {
  await mkdir(workDir, { recursive: true });
  const path = join(workDir, "receptor.pickle");
  const cpuSeconds = cpuSecondsOf(cpuBudgetMs);
  const run = await runTool(STRUCTURE_PYTHON, [SCRIPT, "receptor", pdbPath, path], {
    cpuSeconds,
    timeoutMs: cpuBudgetMs * 10,
  });
  const cpu = round((run.cpuMs ?? 0) / 1000, 2);
  const failure = describeToolFailure("mmgbsa.py receptor", run, cpuBudgetMs * 10, cpuSeconds);
  if (failure !== null) return { status: "failed", reason: failure, cpu_seconds: cpu };
  const parsed = JSON.parse(run.stdout) as Omit<
    Extract<MmGbsaReceptor, { status: "prepared" }>,
    "status" | "path" | "cpu_seconds"
  >;
  return { status: "prepared", path, ...parsed, cpu_seconds: cpu };
}

/**
 * One-frame MM-GBSA scores of ligand poses (SDF, first molecule each) in a prepared receptor, in one
 * process (the receptor is loaded once); the CPU budget is per ligand, the process's the sum. Never
 * throws: a ligand it cannot score is `not_assessed` with the reason.
 */
export async function scoreMmGbsa(
  receptor: Extract<MmGbsaReceptor, { status: "prepared" }>,
  ligandPaths: readonly string[],
  cpuBudgetMsPerLigand: number = MM_GBSA_CAPS.ligand_cpu_budget_ms,
): Promise<MmGbsaScore[]> {
  const budgetMs = cpuBudgetMsPerLigand * ligandPaths.length;
  const cpuSeconds = cpuSecondsOf(budgetMs);
  const run = await runTool(
    STRUCTURE_PYTHON,
    [
      SCRIPT,
      "score",
      receptor.path,
      String(MM_GBSA_SETTINGS.pocket_cutoff_angstrom),
      String(MM_GBSA_SETTINGS.max_iterations),
      ...ligandPaths,
    ],
    { cpuSeconds, timeoutMs: budgetMs * 10 },
  );
  const lines = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as ScriptScore & { cpu_seconds?: number });
  const failure = describeToolFailure("mmgbsa.py score", run, budgetMs * 10, cpuSeconds);
  // One ligand: the whole process's CPU (start-up and receptor load included), what a compound costs a
  // run; several: each ligand's own share as the script measured it.
  const cpuOf = (line: { cpu_seconds?: number } | undefined) =>
    round(ligandPaths.length === 1 && run.cpuMs !== null ? run.cpuMs / 1000 : (line?.cpu_seconds ?? 0), 2);
  return ligandPaths.map((ligand, index): MmGbsaScore => {
    const line = lines[index];
    if (line === undefined || line.ligand !== ligand)
      return {
        status: "not_assessed",
        reason: failure ?? "mmgbsa.py gave no result for this ligand",
        cpu_seconds: 0,
      };
    if (line.error !== undefined || line.score_kcal_mol === undefined)
      return { status: "not_assessed", reason: line.error ?? "no score", cpu_seconds: cpuOf(line) };
    return {
      status: "assessed",
      score_kcal_mol: round(line.score_kcal_mol, 2),
      mm_kcal_mol: round(line.terms?.NonbondedForce ?? Number.NaN, 2),
      solvation_kcal_mol: round(line.terms?.GBSAOBCForce ?? Number.NaN, 2),
      heavy_atoms: line.heavy_atoms ?? 0,
      net_charge: line.net_charge ?? 0,
      pocket_residues: line.pocket_residues ?? 0,
      pocket_atoms: line.pocket_atoms ?? 0,
      ligand_shift_angstrom: round(line.ligand_heavy_rmsd_after_minimisation ?? Number.NaN, 2),
      substituted_parameters: line.substituted_parameters ?? [],
      missing_torsions: line.missing_torsions ?? [],
      charges: "MMFF94 (RDKit), standing in for AM1-BCC",
      settings: MM_GBSA_SETTINGS,
      cpu_seconds: cpuOf(line),
    };
  });
}
