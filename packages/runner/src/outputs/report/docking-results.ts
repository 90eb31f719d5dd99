import { RUN_FILES, readRunFolder } from "@svc/core";

// What the report reads of results/molecular_docking.json (the structure stage's file, issue 25
// items 4 and 10): per structure its box, profile and the per-compound records. The file is read
// defensively, field by field, so a field the docking module adds later (a profile name, ensemble
// receptors, AD4 rescoring) shows up when present and is never required.

export const DOCKING_MODULE = "molecular_docking";
export const DOCKING_RESULT_FILE = RUN_FILES.dockingResult;

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
  /** Interacting residues per type when the module records them (a later module version may). */
  readonly interaction_residues: Readonly<Record<string, readonly string[]>> | null;
  /** Vinardo rescoring of the top pose (deep profile), kcal/mol. */
  readonly vinardo: number | null;
  /** AD4 rescoring of the top pose when the module records it, kcal/mol. */
  readonly ad4: number | null;
  /** The consensus of the scorers (deep profile), kcal/mol, when recorded. */
  readonly consensus: number | null;
  /** The receptor conformation the best pose is in, when the module docked into more than one. */
  readonly best_receptor: string | null;
}

/** Which docking profile computed a structure's results, and what it did (spec §2.1, issue 25 item 7). */
export interface DockingProfileView {
  /** `standard` or `deep`: the record's own `profile` when given, else the run's mode. */
  readonly name: string;
  readonly exhaustiveness: number | null;
  readonly poses: number | null;
  readonly seed: number | null;
  readonly scoring: string | null;
  /** Rescoring functions that gave a value for at least one compound (e.g. Vinardo). */
  readonly rescoring: readonly string[];
  /** Receptor conformations docked into (1: the crystal receptor only); null when not recorded. */
  readonly receptors: number | null;
  /** How the receptor ensemble was built (deep), when recorded. */
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

type Raw = Readonly<Record<string, unknown>>;

/** Reads results/molecular_docking.json of a run folder; null when the module did not write it. */
export async function readDockingRun(runDir: string): Promise<DockingRun | null> {
  // core's reader checks the file's shape once; the fields beyond it are read defensively below
  const file = await readRunFolder(runDir).dockingResult();
  return file === null ? null : dockingRunOf(file);
}

/** The report's reading of the docking module's file (pure). */
export function dockingRunOf(file: unknown): DockingRun | null {
  const root = rec(file);
  if (root === null || !Array.isArray(root.structures)) return null;
  const mode = str(root.mode) ?? "standard";
  const method = rec(root.method);
  const byCompound = new Map<string, CompoundDocking[]>();
  const structures = root.structures.flatMap((entry): DockedStructure[] => {
    const structure = rec(entry);
    const index = num(structure?.index);
    if (structure === null || index === null) return [];
    const result = rec(structure.result);
    const records = Array.isArray(structure.compounds) ? structure.compounds.map(rec) : [];
    const docked: (CompoundDocking & { candidate_id: string })[] = [];
    const notDocked = new Map<string, number>();
    const settings: Raw[] = [];
    for (const record of records) {
      const id = str(record?.candidate_id);
      if (record === null || id === null) continue;
      const compound = compoundOf(index, record);
      byCompound.set(id, [...(byCompound.get(id) ?? []), compound]);
      if (compound.status === "docked") {
        docked.push({ ...compound, candidate_id: id });
        const recorded = rec(record.settings);
        if (recorded !== null) settings.push(recorded);
      } else {
        const reason = compound.reason ?? "not docked";
        notDocked.set(reason, (notDocked.get(reason) ?? 0) + 1);
      }
    }
    return [
      {
        index,
        file: str(structure.file) ?? `structure ${index}`,
        target: str(structure.target),
        pocket_from: str(structure.pocket_from),
        reason: str(result?.status) === "prepared" ? null : (str(result?.reason) ?? "not prepared"),
        box: boxOf(rec(result?.box)),
        profile: profileOf(mode, result, records, settings, docked),
        docked,
        not_docked: notDocked,
      },
    ];
  });
  return {
    mode,
    method: method === null ? null : { what: str(method.what) ?? "", limits: str(method.limits) ?? "" },
    structures,
    byCompound,
  };
}

function compoundOf(structure: number, record: Raw): CompoundDocking {
  const checks = rec(record.pose_checks);
  const consensus = rec(record.consensus);
  const residues = rec(record.interaction_residues);
  return {
    structure,
    status: record.status === "docked" ? "docked" : "not_assessed",
    reason: str(record.reason),
    score: num(record.score_kcal_mol),
    ligand_efficiency: num(record.ligand_efficiency),
    heavy_atoms: num(record.heavy_atoms),
    pose_file: str(record.pose_file),
    pose_checks:
      checks === null || typeof checks.passed !== "boolean"
        ? null
        : {
            passed: checks.passed,
            failed: Array.isArray(checks.failed) ? checks.failed.map(String) : [],
          },
    interactions: numbers(rec(record.interactions)),
    interaction_residues:
      residues === null
        ? null
        : Object.fromEntries(
            Object.entries(residues)
              .filter(([, list]) => Array.isArray(list))
              .map(([type, list]) => [type, (list as unknown[]).map(String)]),
          ),
    vinardo: num(record.vinardo_kcal_mol) ?? num(consensus?.vinardo_kcal_mol) ?? num(consensus?.vinardo),
    ad4: num(record.ad4_kcal_mol) ?? num(consensus?.ad4_kcal_mol) ?? num(consensus?.ad4),
    consensus: num(consensus?.consensus_kcal_mol),
    best_receptor: str(record.best_receptor),
  };
}

function profileOf(
  mode: string,
  result: Raw | null,
  records: readonly (Raw | null)[],
  settings: readonly Raw[],
  docked: readonly CompoundDocking[],
): DockingProfileView {
  // One profile per structure: the module's own profile record (structure result, else the first
  // compound's) when it writes one, else the first docked record's settings and the run's mode.
  const first = settings[0] ?? null;
  const declared =
    rec(result?.profile) ?? records.map((record) => rec(record?.profile)).find(Boolean) ?? null;
  const named =
    str(declared?.name) ??
    records.map((record) => str(record?.profile) ?? str(rec(record?.settings)?.profile)).find(Boolean);
  const counted = records
    .map((record) =>
      Array.isArray(record?.receptor_scores) ? record.receptor_scores.length : num(record?.receptors),
    )
    .find((count) => count !== null && count !== undefined);
  const declaredRescorers = Array.isArray(declared?.rescorers) ? declared.rescorers.map(String) : null;
  const rescoring =
    declaredRescorers !== null
      ? declaredRescorers.map(scorerName)
      : [
          ...(docked.some((compound) => compound.vinardo !== null) ? ["Vinardo"] : []),
          ...(docked.some((compound) => compound.ad4 !== null) ? ["AD4"] : []),
        ];
  const ensemble = rec(result?.ensemble);
  return {
    name: named ?? mode,
    exhaustiveness: num(declared?.exhaustiveness) ?? num(first?.exhaustiveness),
    poses: num(first?.numModes) ?? num(first?.num_modes),
    seed: num(first?.seed),
    scoring: str(first?.scoring),
    rescoring,
    receptors: num(declared?.ensemble_size) ?? counted ?? null,
    ensemble_rule: str(ensemble?.rule),
  };
}

/** A scorer as people write it: `vinardo` → Vinardo, `ad4` → AD4. */
function scorerName(id: string): string {
  const known: Record<string, string> = { vinardo: "Vinardo", ad4: "AD4", vina: "Vina" };
  return known[id.toLowerCase()] ?? id;
}

function boxOf(box: Raw | null): DockingBox | null {
  const center = triple(box?.center);
  const size = triple(box?.size);
  if (box === null || center === null || size === null) return null;
  return { center, size, source: str(box.source) ?? "box" };
}

function triple(value: unknown): [number, number, number] | null {
  if (!Array.isArray(value) || value.length !== 3) return null;
  const [a, b, c] = value.map(num);
  return a == null || b == null || c == null ? null : [a, b, c];
}

function numbers(value: Raw | null): Record<string, number> | null {
  if (value === null) return null;
  const out: Record<string, number> = {};
  for (const [key, inner] of Object.entries(value)) {
    const n = num(inner);
    if (n !== null) out[key] = n;
  }
  return out;
}

function rec(value: unknown): Raw | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Raw) : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
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
