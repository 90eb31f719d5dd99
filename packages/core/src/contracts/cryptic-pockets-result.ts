import { z } from "zod";
import { stagedStructureFields, structureModuleFileSchema } from "./structure-module-file.ts";

// docs/contracts/cryptic-pockets-result.md (issue 40 item 5): `results/cryptic_pockets.json`, the
// cryptic_pockets structure module's file. One shape from the writer (science's analyseCrypticPockets,
// whose result type is this schema's) to its reader (the report's cryptic pocket hints): the writer
// cannot write a field this schema does not name, and the report, parsing the file with it, cannot
// read one the writer does not write. Objects are strict, as docking-result.ts's.

const count = z.number().int().nonnegative();
const residues = z
  .array(z.string())
  .describe("RES:CHAIN:NUM (insertion code appended) of each lining residue");
const atDockingPocket = z
  .boolean()
  .nullable()
  .describe("null when the structure has no docking pocket (no reference ligand and no box)");

/** One cavity ConCavity finds on the crystal receptor. */
export const crystalCavitySchema = z.strictObject({
  rank: z.number().int().positive().describe("1-based, by size (grid points), larger first"),
  points: count,
  volume_a3: z.number().nonnegative(),
  lining_residues: residues,
  at_docking_pocket: atDockingPocket,
});

/** A cavity of the ANM conformers that the crystal receptor does not have, worded as a hint. */
export const transientCavitySchema = z.strictObject({
  opened_in: z
    .array(z.string())
    .describe("each conformer whose cavity this is, e.g. anm_mode_2_minus (overlapping ones are one cavity)"),
  modes: z
    .array(z.number().int().positive())
    .describe("the normal modes (1-based among non-zero ANM modes, lowest first) along which it opens"),
  points: count.describe("the largest of its cavities, grid points"),
  volume_a3: z.number().nonnegative(),
  crystal_overlap: z
    .number()
    .min(0)
    .max(1)
    .describe("share of its points near a crystal cavity point (under the transient fraction)"),
  lining_residues: residues,
  at_docking_pocket: atDockingPocket,
  hint: z
    .string()
    .describe("the modes that open it, and: a hint for where a pocket may open, not evidence that it does"),
});

/** One ANM conformer ConCavity ran on. */
export const crypticConformerSchema = z.strictObject({
  label: z.string(),
  mode: z.number().int().positive(),
  eigenvalue: z.number(),
  cavities: count,
  transient: count,
});

/** One structure's result: the cavities and the transient ones (EXPLORATORY), or why none. */
export const crypticPocketsStructureResultSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("executed"),
    risk: z.literal("EXPLORATORY"),
    calpha_count: count,
    rule: z.string(),
    docking_pocket: z.string().nullable().describe('"the docking box", "reference ligand <label>", or null'),
    crystal: z.array(crystalCavitySchema),
    conformers: z.array(crypticConformerSchema),
    transient: z.array(transientCavitySchema).describe("most conformers first, then larger first"),
    summary: z.string().describe("one line a reader can take away, worded as a hint"),
    cost: z.strictObject({
      concavity_runs: count,
      concavity_cpu_s: z.number().nonnegative().nullable().describe("null when no run's CPU was read"),
      wall_s: z.number().nonnegative(),
    }),
  }),
  z.strictObject({ status: z.literal("not_assessed"), reason: z.string().min(1), calpha_count: count }),
]);

export type CrypticPocketsStructureResult = z.infer<typeof crypticPocketsStructureResultSchema>;

/** One staged structure's entry of the file (the structure stage's record around the module's result). */
export const crypticPocketsStructureSchema = z.strictObject({
  ...stagedStructureFields,
  result: crypticPocketsStructureResultSchema,
});

/** `results/cryptic_pockets.json`: the structure-module envelope with cryptic_pockets' structures. */
export const crypticPocketsResultSchema = structureModuleFileSchema(
  "cryptic_pockets",
  crypticPocketsStructureSchema,
);

export type CrypticPocketsResultFile = z.infer<typeof crypticPocketsResultSchema>;
