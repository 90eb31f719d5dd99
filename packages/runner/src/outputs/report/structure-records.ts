import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { structureResultFile } from "../structure-result-file.ts";
import { DOCKING_MODULE } from "./docking-results.ts";

/**
 * The per-compound records of the structure modules other than docking (physics_audit,
 * quantum_target_audit, advanced_comp_chem_summary, issue 40): read from their results/<module>.json
 * once when the report opens, keyed by candidate id, so each compound's card shows them as a panel and
 * report.csv as columns, like any module's finding. Docking has its own panel (docking-results.ts).
 * One staged structure gives the module id as the key; several give `<module>@pdbs[<index>]`.
 * Bounded: these modules run on capped, best-docked compounds only.
 */
export type StructureRecords = ReadonlyMap<string, ReadonlyMap<string, Readonly<Record<string, unknown>>>>;

export async function readStructureRecords(
  runDir: string,
  moduleIds: readonly string[],
): Promise<StructureRecords> {
  const byCompound = new Map<string, Map<string, Readonly<Record<string, unknown>>>>();
  for (const moduleId of moduleIds) {
    if (moduleId === DOCKING_MODULE) continue;
    let file: unknown;
    try {
      file = JSON.parse(await readFile(join(runDir, structureResultFile(moduleId)), "utf8"));
    } catch {
      continue;
    }
    const structures = (file as { structures?: unknown }).structures;
    if (!Array.isArray(structures)) continue;
    for (const structure of structures) {
      const { index, compounds } = (structure ?? {}) as { index?: unknown; compounds?: unknown };
      if (!Array.isArray(compounds)) continue;
      const key = structures.length === 1 ? moduleId : `${moduleId}@pdbs[${String(index)}]`;
      for (const record of compounds) {
        if (record === null || typeof record !== "object" || Array.isArray(record)) continue;
        const id = (record as { candidate_id?: unknown }).candidate_id;
        if (typeof id !== "string") continue;
        const { candidate_id: _id, ...values } = record as Record<string, unknown>;
        const entry = byCompound.get(id) ?? new Map<string, Readonly<Record<string, unknown>>>();
        entry.set(key, values);
        byCompound.set(id, entry);
      }
    }
  }
  return byCompound;
}
