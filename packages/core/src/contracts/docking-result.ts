import { z } from "zod";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { stagedStructureFields, structureModuleFileSchema } from "./structure-module-file.ts";

// docs/contracts/docking-result.md (issue 39 item 3): `results/molecular_docking.json`, the docking
// module's file. One shape from the writer (the runner's molecular_docking module, mapping science's
// DockingResult) to its readers (the report, report.csv, the physics modules): the writer's records are
// typed by it, so it cannot write a field this schema does not name, and the report parses the file
// with it, so it cannot read one the writer does not write. Objects are strict: a field nobody
// declared is refused, not carried along.

const kcalPerMol = z.number().describe("kcal/mol, lower binds better");
const triple = z.tuple([z.number(), z.number(), z.number()]);

/** What a docking profile computed (spec §2.1: deep is the heavier profile; issue 25 item 7). */
export const dockingProfileSchema = z.strictObject({
  name: z.enum(["standard", "deep"]),
  exhaustiveness: z.number().int().positive(),
  ensemble_size: z
    .number()
    .int()
    .positive()
    .describe("receptors docked into: 1, the crystal receptor, or the ensemble"),
  rescorers: z.array(z.string()).describe("scoring functions the best pose is rescored with besides Vina"),
});

export type DockingProfileRecord = z.infer<typeof dockingProfileSchema>;

/** The Vina settings of one compound's docking (science's DockingSettings). */
export const dockingSettingsSchema = z.strictObject({
  seed: z.number().int(),
  exhaustiveness: z.number().int().positive(),
  numModes: z.number().int().positive(),
  cpu: z.number().int().positive(),
  cpuBudgetS: z.number().positive().describe("CPU seconds per Vina run"),
  timeoutMs: z.number().positive().describe("wall-clock safety net per Vina run"),
  scoring: z.literal("vina"),
});

/** The best pose rescored and the consensus (deep profile only). */
export const dockingConsensusSchema = z.strictObject({
  receptor: z.string(),
  vina_kcal_mol: kcalPerMol,
  vinardo_kcal_mol: kcalPerMol.nullable(),
  vinardo_reason: z.string().nullable(),
  ad4_kcal_mol: kcalPerMol.nullable(),
  ad4_reason: z.string().nullable(),
  consensus_kcal_mol: kcalPerMol,
  spread_kcal_mol: z.number().nonnegative(),
  scorers_used: z.array(z.string()),
  rule: z.string(),
});

const count = z.number().int().nonnegative();

/** Interaction counts of the top pose by PLIP type, with `total` and distinct interacting `residues`. */
export const dockingInteractionCountsSchema = z.strictObject({
  hydrophobic: count,
  hydrogen_bond: count,
  salt_bridge: count,
  pi_stacking: count,
  pi_cation: count,
  halogen_bond: count,
  metal_complex: count,
  total: count,
  residues: count,
});

/** One compound docked into one structure. */
export const dockedCompoundSchema = z.strictObject({
  candidate_id: z.string().min(1),
  status: z.literal("docked"),
  reason: z.null(),
  score_kcal_mol: kcalPerMol.describe("best Vina score over the receptors docked into"),
  ligand_efficiency: z.number().nullable().describe("−score / heavy atoms (Hopkins et al. 2004)"),
  heavy_atoms: z.number().int().positive(),
  pose_file: z.string().describe(`the top pose, relative to the run folder: ${RUN_FILES.pose}`),
  pose_checks: z.strictObject({ passed: z.boolean(), failed: z.array(z.string()) }),
  interactions: dockingInteractionCountsSchema
    .nullable()
    .describe("null when the pose could not be profiled"),
  vinardo_kcal_mol: kcalPerMol.nullable(),
  profile: dockingProfileSchema,
  receptor_scores: z.array(
    z.strictObject({
      receptor: z.string(),
      score_kcal_mol: kcalPerMol.nullable(),
      reason: z.string().nullable(),
    }),
  ),
  best_receptor: z.string().describe("the receptor the best pose is in"),
  consensus: dockingConsensusSchema.nullable(),
  settings: dockingSettingsSchema,
});

/** A compound the module did not dock, with why (`cap`, a preparation failure, a time budget…). */
export const notDockedCompoundSchema = z.strictObject({
  candidate_id: z.string().min(1),
  status: z.literal("not_assessed"),
  reason: z.string().min(1),
});

/** The docking result record of one compound and one structure. */
export const dockingCompoundRecordSchema = z.discriminatedUnion("status", [
  dockedCompoundSchema,
  notDockedCompoundSchema,
]);

export type DockedCompoundRecord = z.infer<typeof dockingCompoundRecordSchema>;

/** The docking box (Å) and where it came from (a reference ligand or the staged box). */
export const dockingBoxSchema = z.strictObject({ center: triple, size: triple, source: z.string() });

/** A program call with its exact argument vector, program first. */
const toolInvocationSchema = z.strictObject({ tool: z.string(), argv: z.array(z.string()) });

/** The receptor preparation's own record (science's PreparedReceptor: PDBFixer, then Open Babel). */
export const preparedReceptorSchema = z.strictObject({
  structureSha256: z.string(),
  pdbPath: z.string(),
  pdbqtPath: z.string(),
  report: z.strictObject({
    removed_heterogens: z.record(z.string(), count),
    replaced_nonstandard: z.array(z.string()),
    added_heavy_atoms: count,
    added_hydrogens: count,
    atoms: count,
    residues: count,
    protein_chains: count,
    openmm_platform: z.string(),
  }),
  charges: z.string(),
  invocations: z.array(toolInvocationSchema),
  fromCache: z.boolean(),
});

/** A structure the module prepared (receptor, box, profile), or could not, with why. */
export const dockingStructureResultSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("prepared"),
    box: dockingBoxSchema,
    receptor: preparedReceptorSchema,
    cap: z.number().int().nonnegative().describe("compounds docked at most into this structure"),
    profile: dockingProfileSchema,
    ensemble: z
      .strictObject({
        receptors: z.array(z.string()),
        rule: z.string(),
        eigenvalues: z.array(z.number()),
        reason: z.string().nullable(),
        paths: z.array(
          z.strictObject({ label: z.string().optional(), pdbPath: z.string(), pdbqtPath: z.string() }),
        ),
      })
      .nullable()
      .describe("deep only: the receptor ensemble (crystal + ANM conformers) and its rule"),
  }),
  z.strictObject({ status: z.literal("not_assessed"), reason: z.string().min(1) }),
]);

/** One staged structure's entry of the file. */
export const dockingStructureSchema = z.strictObject({
  ...stagedStructureFields,
  result: dockingStructureResultSchema,
  compounds: z.array(dockingCompoundRecordSchema),
});

/** `results/molecular_docking.json`: the structure-module envelope with docking's structures. */
export const dockingResultSchema = structureModuleFileSchema("molecular_docking", dockingStructureSchema);

export type DockingResultFile = z.infer<typeof dockingResultSchema>;
