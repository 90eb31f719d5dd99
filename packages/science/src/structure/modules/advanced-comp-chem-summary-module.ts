import { type DockedCompoundRecord, RUN_FILES, readRunFolder, runPath } from "@svc/core";
import type { MethodCard } from "../../analysis-module.ts";
import { defineStructureModule, type StructureContext } from "../../define-structure-module.ts";

/**
 * The structure and physics modules whose per-compound results the summary gathers, in the order
 * the structure stage runs them (structure-modules.ts lists this module after all of them).
 */
export const SUMMARISED_MODULES = [
  "molecular_docking",
  "physics_audit",
  "quantum_target_audit",
  "physics_binding",
  "qmmm_analysis",
  "interaction_stability",
] as const;
export type SummarisedModule = (typeof SUMMARISED_MODULES)[number];

/** What one summarised module said of one compound: its numbers, or why there are none. */
export type ModuleCell =
  | { readonly status: "present"; readonly values: Readonly<Record<string, unknown>> }
  | { readonly status: "missing"; readonly reason: string };

export interface ComputationalSummaryRow {
  readonly candidate_id: string;
  readonly modules: Readonly<Record<SummarisedModule, ModuleCell>>;
  /** The modules with nothing for this compound, each with its reason. */
  readonly missing: readonly { readonly module_id: string; readonly reason: string }[];
}

/** Per structure: each summarised module's compound records by candidate id, or why there are none. */
type Sources = Readonly<
  Record<
    SummarisedModule,
    { readonly byId: ReadonlyMap<string, Record<string, unknown>> } | { readonly reason: string }
  >
>;

/** The keys of each module's compound record the table shows (the rest stay in that module's result file). */
const SHOWN: Readonly<Record<SummarisedModule, readonly string[]>> = {
  molecular_docking: [
    "score_kcal_mol",
    "ligand_efficiency",
    "pose_checks",
    "interactions",
    "best_receptor",
    "consensus",
    "pose_file",
  ] satisfies readonly (keyof Extract<DockedCompoundRecord, { status: "docked" }>)[],
  physics_audit: [
    "strain_kcal_mol",
    "pm7_strain_kcal_mol",
    "conformers_optimised",
    "global_minimum_from",
    "cpu_seconds",
  ],
  quantum_target_audit: ["gfn2_gap_ev", "pm7_gap_ev", "charge_range", "dipole_debye", "cpu_seconds"],
  physics_binding: [
    "mm_gbsa_relative_kcal_mol",
    "mm_kcal_mol",
    "solvation_kcal_mol",
    "substituted_parameters",
    "cpu_seconds",
  ],
  qmmm_analysis: [
    "interaction_energy_kcal_mol",
    "energy_kind",
    "cluster_atoms",
    "pocket_charge",
    "cpu_seconds",
  ],
  interaction_stability: [
    "what",
    "rmsd_mean_angstrom",
    "rmsd_max_angstrom",
    "fraction_frames_within_2_angstrom",
    "interaction_occupancy",
    "cpu_seconds",
  ],
};

const METHOD: MethodCard = {
  what:
    "One table per staged structure of what the structure and physics modules found for each compound: " +
    "molecular_docking's best score, ligand efficiency, pose checks, interaction counts and pose file; " +
    "physics_audit's strain of the docked pose (GFN2-xTB, PM7 check); quantum_target_audit's HOMO–LUMO gaps and " +
    `charges; physics_binding's MM-GBSA rescoring (relative, not a binding free energy); qmmm_analysis's GFN2 QM-cluster interaction energy (no sampling, no entropy); interaction_stability's pose stability over its short MD (RMSD, interaction occupancy). Each cell is copied from that module's own ${RUN_FILES.moduleResult} (nothing is recomputed); a module ` +
    "with nothing for a compound is named in `missing` with the reason (not run in this category, failed, " +
    "past its cap, not assessed and why).",
  citations: [
    `The summarised modules' own method cards (${RUN_FILES.dockingResult}, ${["physics_audit", "quantum_target_audit", "physics_binding", "qmmm_analysis", "interaction_stability"].map((module) => runPath("moduleResult", { module })).join(", ")})`,
  ],
  data: [],
  validation:
    "A gathering step with no model of its own: advanced-comp-chem-summary-module.test.ts checks each cell " +
    "equals the source module's record and every absent module is named with its reason.",
  limits:
    "Only as good as the modules it reads; it adds no number. A module the category does not run is listed as " +
    "missing for every compound.",
};

/** Reads one summarised module's results file for a structure: compound records by id, or why not. */
async function readSource(runDir: string, moduleId: SummarisedModule, index: number) {
  const parsed = await readRunFolder(runDir)
    .moduleResult(moduleId)
    .catch(() => null);
  if (parsed === null)
    return {
      reason: `${moduleId} has no result in this run (not planned for this category, or it failed: see the module plan)`,
    };
  const record = parsed.structures.find((entry) => entry.index === index);
  if (record === undefined || !Array.isArray(record.compounds)) {
    const why = (record?.result as { reason?: unknown } | undefined)?.reason;
    return {
      reason: `${moduleId} has no compound results for this structure${typeof why === "string" ? `: ${why}` : ""}`,
    };
  }
  const byId = new Map<string, Record<string, unknown>>();
  for (const compound of record.compounds as Record<string, unknown>[])
    if (typeof compound.candidate_id === "string") byId.set(compound.candidate_id, compound);
  return { byId };
}

function cellOf(
  moduleId: SummarisedModule,
  source: Sources[SummarisedModule],
  candidateId: string,
): ModuleCell {
  if ("reason" in source) return { status: "missing", reason: source.reason };
  const record = source.byId.get(candidateId);
  if (record === undefined) return { status: "missing", reason: `${moduleId} did not reach this compound` };
  if (record.status === "not_assessed")
    return {
      status: "missing",
      reason: `${moduleId} not assessed: ${typeof record.reason === "string" ? record.reason : "no reason given"}`,
    };
  const values: Record<string, unknown> = {};
  for (const key of SHOWN[moduleId]) if (key in record) values[key] = record[key];
  return { status: "present", values };
}

/** Per summarised module: how many compound records were read for the structure, or why none. */
function sourcesRecord(sources: Sources): Record<string, unknown> {
  return Object.fromEntries(
    SUMMARISED_MODULES.map((id) => {
      const source = sources[id];
      return [id, "reason" in source ? { read: 0, reason: source.reason } : { read: source.byId.size }];
    }),
  );
}

/** `advanced_comp_chem_summary` (issue 40 item 4): the last structure module, gathering the others' per-compound results. */
export const advancedCompChemSummaryModule = defineStructureModule<Sources, ComputationalSummaryRow>({
  id: "advanced_comp_chem_summary",
  version: "1.0.0",
  method: METHOD,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  async assessStructure(context: StructureContext) {
    const entries = await Promise.all(
      SUMMARISED_MODULES.map(
        async (id) => [id, await readSource(context.runDir, id, context.staged.index)] as const,
      ),
    );
    const sources = Object.fromEntries(entries) as unknown as Sources;
    // The structure's record in results/advanced_comp_chem_summary.json: what was read, not the records again.
    return Object.assign(Object.create({ toJSON: () => sourcesRecord(sources) }), sources) as Sources;
  },
  perCompound: {
    pooled: false,
    async assess(_context, sources, compound) {
      const id = compound.row.candidateId;
      const modules = Object.fromEntries(
        SUMMARISED_MODULES.map((moduleId) => [moduleId, cellOf(moduleId, sources[moduleId], id)]),
      ) as Record<SummarisedModule, ModuleCell>;
      const missing = SUMMARISED_MODULES.flatMap((moduleId) => {
        const cell = modules[moduleId];
        return cell.status === "missing" ? [{ module_id: moduleId, reason: cell.reason }] : [];
      });
      return { candidate_id: id, modules, missing };
    },
  },
});
