import { z } from "zod";

// What every structure module's results/<module>.json holds around the module's own records (the
// runner's structure stage writes it): the envelope, and per staged structure where it came from.
// One home for the strict contracts of single modules (docking-result.ts, cryptic-pockets-result.ts),
// so their envelopes cannot drift apart.

/** A staged structure's entry fields before the module's `result` (and `compounds`). */
export const stagedStructureFields = {
  index: z.number().int().nonnegative().describe("0-based index in sources.json pdbs"),
  file: z.string().describe("01_sources/<file>"),
  format: z.enum(["pdb", "mmcif"]),
  chains: z.array(z.string()),
  target: z.string().nullable(),
  pocket_from: z.string().nullable().describe('"box", the reference ligand, or null'),
};

/** `results/<moduleId>.json`: the structure-module envelope (svc.structure-module/v1) around `structure` entries. */
export function structureModuleFileSchema<const M extends string, S extends z.ZodType>(
  moduleId: M,
  structure: S,
) {
  return z.strictObject({
    schema: z.literal("svc.structure-module/v1"),
    module_id: z.literal(moduleId),
    module_version: z.string(),
    run_id: z.string(),
    mode: z.string(),
    generated_at: z.string().describe("RFC 3339 UTC instant"),
    risk_channel: z.string(),
    status: z.literal("executed"),
    method: z
      .looseObject({ what: z.string(), limits: z.string() })
      .describe("the module's method card (every structure module's shape)"),
    structures: z.array(structure),
  });
}
