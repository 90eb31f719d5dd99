import { readRunFolder } from "@svc/core";
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
  const run = readRunFolder(runDir);
  for (const moduleId of moduleIds) {
    if (moduleId === DOCKING_MODULE) continue;
    // absent, unreadable or not a module result: the module shows no panel
    const file = await run.moduleResult(moduleId).catch(() => null);
    if (file === null) continue;
    const structures = file.structures;
    for (const { index, compounds } of structures) {
      if (compounds === undefined) continue;
      const key = structures.length === 1 ? moduleId : `${moduleId}@pdbs[${index}]`;
      for (const { candidate_id: id, ...values } of compounds) {
        if (id === undefined) continue;
        const entry = byCompound.get(id) ?? new Map<string, Readonly<Record<string, unknown>>>();
        entry.set(key, values);
        byCompound.set(id, entry);
      }
    }
  }
  return byCompound;
}
