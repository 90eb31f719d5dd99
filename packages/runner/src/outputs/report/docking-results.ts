import type { DockedCompoundRecord, DockingResultFile } from "@svc/core";
import { readDockingResult } from "../docking-result-file.ts";

// What the report reads of results/molecular_docking.json (the structure stage's file, issue 25
// items 4 and 10): per structure its box, profile and the per-compound records. The file is parsed
// with core's dockingResultSchema, the type the docking module writes its records in (issue 39
// item 3), so every field read here is one the module writes: reading another does not typecheck.

export const DOCKING_MODULE = "molecular_docking";

/** What one compound's docking into one structure gave. */
export interface CompoundDocking {
  /** The structure's 0-based index in sources.json `pdbs` (its poses are under results/poses/structure-<index>/). */
  readonly structure: number;
  readonly status: "docked" | "not_assessed";
  readonly reason: string | null;
  /** Best Vina score, kcal/mol (lower binds better). */
  readonly score: number | null;
  /** −score / heavy atoms, kcal/mol per heavy atom (Hopkins et al. 2004). */
  readonly ligand_efficiency: number | null;
  readonly heavy_atoms: number | null;
  /** The top pose, relative to the run folder (results/poses/structure-<n>/<id>.sdf). */
  readonly pose_file: string | null;
  /** PoseBusters-style checks: null when the record has none. */
  readonly pose_checks: { readonly passed: boolean; readonly failed: readonly string[] } | null;
  /** Interaction counts by PLIP type, plus `total` and `residues` (distinct interacting residues). */
  readonly interactions: Readonly<Record<string, number>> | null;
  /** Vinardo rescoring of the top pose (deep profile), kcal/mol. */
  readonly vinardo: number | null;
  /** AD4 rescoring of the top pose (deep profile), kcal/mol. */
  readonly ad4: number | null;
  /** The consensus of the scorers (deep profile), kcal/mol. */
  readonly consensus: number | null;
  /** The receptor conformation the best pose is in. */
  readonly best_receptor: string | null;
}

/** Which docking profile computed a structure's results, and what it did (spec §2.1, issue 25 item 7). */
export interface DockingProfileView {
  /** `standard` or `deep`: the structure's profile when it was prepared, else the run's mode. */
  readonly name: string;
  readonly exhaustiveness: number | null;
  readonly poses: number | null;
  readonly seed: number | null;
  readonly scoring: string | null;
  /** Rescoring functions that gave a value for at least one compound (e.g. Vinardo). */
  readonly rescoring: readonly string[];
  /** Receptor conformations docked into (1: the crystal receptor only); null when not prepared. */
  readonly receptors: number | null;
  /** How the receptor ensemble was built (deep); null for standard. */
  readonly ensemble_rule: string | null;
}

export interface DockingBox {
  readonly center: readonly [number, number, number];
  readonly size: readonly [number, number, number];
  readonly source: string;
}

export interface DockedStructure {
  readonly index: number;
  /** As the file names it: `01_sources/<file>`. */
  readonly file: string;
  readonly target: string | null;
  readonly pocket_from: string | null;
  /** `prepared` when the receptor was prepared and compounds were docked; otherwise the reason. */
  readonly reason: string | null;
  readonly box: DockingBox | null;
  readonly profile: DockingProfileView;
  /** Docked compounds only (≤ the module's cap per structure), in portfolio order. */
  readonly docked: readonly (CompoundDocking & { readonly candidate_id: string })[];
  /** Compounds not docked, counted by reason (`cap`, a preparation failure, …). */
  readonly not_docked: ReadonlyMap<string, number>;
}

export interface DockingRun {
  readonly mode: string;
  readonly method: { readonly what: string; readonly limits: string } | null;
  readonly structures: readonly DockedStructure[];
  /** candidate id → its docking per structure (docked or not). */
  readonly byCompound: ReadonlyMap<string, readonly CompoundDocking[]>;
}

/** Reads results/molecular_docking.json of a run folder; null when the module did not write it. */
export async function readDockingRun(runDir: string): Promise<DockingRun | null> {
  const file = await readDockingResult(runDir);
  return file === null ? null : dockingRunOf(file);
}

/** The report's reading of the docking module's file (pure). */
export function dockingRunOf(file: DockingResultFile): DockingRun {
  const byCompound = new Map<string, CompoundDocking[]>();
  const structures = file.structures.map((structure): DockedStructure => {
    const { result, index } = structure;
    const docked: (CompoundDocking & { candidate_id: string })[] = [];
    const notDocked = new Map<string, number>();
    let first: Extract<DockedCompoundRecord, { status: "docked" }> | null = null;
    for (const record of structure.compounds) {
      const compound = compoundOf(index, record);
      byCompound.set(record.candidate_id, [...(byCompound.get(record.candidate_id) ?? []), compound]);
      if (record.status === "docked") {
        first ??= record;
        docked.push({ ...compound, candidate_id: record.candidate_id });
      } else notDocked.set(record.reason, (notDocked.get(record.reason) ?? 0) + 1);
    }
    const prepared = result.status === "prepared" ? result : null;
    return {
      index,
      file: structure.file,
      target: structure.target,
      pocket_from: structure.pocket_from,
      reason: result.status === "prepared" ? null : result.reason,
      box: prepared?.box ?? null,
      profile: {
        name: prepared?.profile.name ?? file.mode,
        exhaustiveness: prepared?.profile.exhaustiveness ?? null,
        poses: first?.settings.numModes ?? null,
        seed: first?.settings.seed ?? null,
        scoring: first?.settings.scoring ?? null,
        rescoring: prepared?.profile.rescorers.map(scorerName) ?? [],
        receptors: prepared?.profile.ensemble_size ?? null,
        ensemble_rule: prepared?.ensemble?.rule ?? null,
      },
      docked,
      not_docked: notDocked,
    };
  });
  return {
    mode: file.mode,
    method: { what: file.method.what, limits: file.method.limits },
    structures,
    byCompound,
  };
}

function compoundOf(structure: number, record: DockedCompoundRecord): CompoundDocking {
  if (record.status !== "docked")
    return {
      structure,
      status: "not_assessed",
      reason: record.reason,
      score: null,
      ligand_efficiency: null,
      heavy_atoms: null,
      pose_file: null,
      pose_checks: null,
      interactions: null,
      vinardo: null,
      ad4: null,
      consensus: null,
      best_receptor: null,
    };
  return {
    structure,
    status: "docked",
    reason: null,
    score: record.score_kcal_mol,
    ligand_efficiency: record.ligand_efficiency,
    heavy_atoms: record.heavy_atoms,
    pose_file: record.pose_file,
    pose_checks: record.pose_checks,
    interactions: record.interactions,
    vinardo: record.vinardo_kcal_mol,
    ad4: record.consensus?.ad4_kcal_mol ?? null,
    consensus: record.consensus?.consensus_kcal_mol ?? null,
    best_receptor: record.best_receptor,
  };
}

/** A scorer as people write it: `vinardo` → Vinardo, `ad4` → AD4. */
function scorerName(id: string): string {
  const known: Record<string, string> = { vinardo: "Vinardo", ad4: "AD4", vina: "Vina" };
  return known[id.toLowerCase()] ?? id;
}

/** A compound's best docking over the structures (lowest score); null when none docked it. */
export function bestDocking(docking: readonly CompoundDocking[]): CompoundDocking | null {
  let best: CompoundDocking | null = null;
  for (const entry of docking)
    if (
      entry.status === "docked" &&
      entry.score !== null &&
      (best === null || entry.score < (best.score ?? 0))
    )
      best = entry;
  return best;
}
