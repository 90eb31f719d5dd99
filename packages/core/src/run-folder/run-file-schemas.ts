import { z } from "zod";
import { CLAIM_STRENGTHS } from "../contracts/claim-strength.ts";
import { runIdSchema } from "../contracts/run-id.ts";

// The shapes of the run folder's JSON files that other packages read back (issue 41 item 1;
// docs/contracts/run-folder.md; ARCHITECTURE.md convention 5: one schema per data shape, JSON
// Schema generated from it, schemas/*.schema.json). The runner writes more fields than these name:
// the objects are loose so a field added to a file is carried through, never a reason to refuse
// it; what a reader relies on is typed and checked here, once, instead of cast where it is read.

const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits");

/** A category as the plan resolved it (runner `resolveCategory`). */
export const categoryResolutionSchema = z.looseObject({
  category_id: z.string(),
  resolved_by: z.enum(["auto", "preset"]),
  forced: z.boolean(),
  rule: z.string(),
});

/** One module's line in the plan (runner `PlanEntry`). */
export const modulePlanEntrySchema = z.looseObject({
  module_id: z.string(),
  bucket: z.string().describe("required, recommended, optional, disabled or not_in_category"),
  risk_channel: z.string(),
  outcome: z.enum(["executed", "skipped", "failed", "planned"]),
  reason: z.string().nullable().describe("why it was skipped: missing_input, not_available, out_of_scope"),
  detail: z.string().nullable(),
  version: z.string().nullable().describe("the version the module reported when it ran"),
});

/** `plans/<run_id>_module_plan.json`: every module of the policy, and what became of it. */
export const modulePlanFileSchema = z.looseObject({
  schema: z.literal("svc.module-plan/v1"),
  run_id: runIdSchema,
  generated_at: z.string(),
  policy_version: z.string(),
  category_resolution: categoryResolutionSchema,
  counts: z.looseObject({
    coverage_ratio: z.number(),
    claim_strength: z.enum(CLAIM_STRENGTHS),
    missing_required: z.array(z.string()),
  }),
  modules: z.array(modulePlanEntrySchema),
});

/** `results/summary.json` of a finished run (`status: completed`). */
export const completedSummarySchema = z.looseObject({
  schema: z.literal("svc.summary/v2"),
  status: z.literal("completed"),
  run_id: runIdSchema,
  project_id: z.string(),
  mode: z.string(),
  module_id: z.string(),
  category_id: z.string(),
  generated_at: z.string(),
  inputs_sha256: sha256,
  compounds: z.looseObject({
    total: count,
    parsed: count.nullable(),
    unparseable: count.nullable(),
    unassessed: count,
  }),
  claim_strength: z.enum(CLAIM_STRENGTHS),
  claim_reasons: z.array(z.string()),
  profile: z.string().nullable().describe("the target product profile, e.g. oral_peripheral"),
  coverage_ratio: z.number(),
  missing_proof: z.array(z.string()).describe("required modules that did not run"),
  report: z.string(),
});

/** `results/summary.json` of a run stopped by a signal after its charge (runner `buildInterruptedSummary`). */
export const interruptedSummarySchema = z.looseObject({
  schema: z.literal("svc.summary/v2"),
  status: z.literal("interrupted"),
  run_id: runIdSchema,
  project_id: z.string(),
  mode: z.string(),
  signal: z.string().nullable(),
  stage: z.string(),
  interrupted_at: z.string(),
  resume: z.string(),
});

/** `results/summary.json`. It never says whether the run is sealed: seal/ and the status record do. */
export const runSummaryFileSchema = z.discriminatedUnion("status", [
  completedSummarySchema,
  interruptedSummarySchema,
]);

/** `run_manifest.json`: sealed by its SHA-256; the fields the seal is cross-checked with are typed. */
export const runManifestSchema = z.looseObject({
  schema: z.literal("svc.run-manifest/v1"),
  run_id: runIdSchema,
  project_id: z.string(),
  mode: z.string(),
  module_id: z.string(),
  category_id: z.string(),
  started_at: z.string(),
  outputs_completed_at: z.string(),
  runtime: z.looseObject({ runner_version: z.string() }),
  entitlement: z.looseObject({ principal: z.string() }),
  outputs: z.looseObject({ plan: z.string(), summary: z.string(), report: z.string() }),
});

/** One file and its SHA-256 in a hash list. */
const fileHashSchema = z.looseObject({ path: z.string(), sha256 });

/** `inputs/input_hashes.json`: the staged inputs behind the seal's `inputs_sha256` (svc-tree/v1). */
export const inputHashesSchema = z.looseObject({
  format: z.literal("svc-tree/v1"),
  inputs_sha256: sha256,
  files: z.array(fileHashSchema),
});

/**
 * `repro_pack/outputs/expected_output_hashes.json`: every output file's SHA-256. It proves nothing
 * (the seal does); it names the files that differ when the outputs no longer hash to the seal.
 */
export const expectedHashesSchema = z.looseObject({
  schema: z.literal("svc.expected-output-hashes/v1"),
  algorithm: z.literal("sha256"),
  files: z.array(fileHashSchema),
});

/** Any structure module's `results/<module>.json`: per structure, per-compound records. */
export const moduleResultSchema = z.looseObject({
  structures: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      compounds: z
        .array(z.looseObject({ candidate_id: z.string().optional() }))
        .optional()
        .describe("one record per compound reached, by candidate_id"),
    }),
  ),
});

export type ModulePlanFile = z.infer<typeof modulePlanFileSchema>;
export type ModulePlanEntry = z.infer<typeof modulePlanEntrySchema>;
export type RunSummaryFile = z.infer<typeof runSummaryFileSchema>;
export type CompletedSummary = z.infer<typeof completedSummarySchema>;
export type RunManifest = z.infer<typeof runManifestSchema>;
export type InputHashes = z.infer<typeof inputHashesSchema>;
export type ExpectedHashes = z.infer<typeof expectedHashesSchema>;
export type ModuleResult = z.infer<typeof moduleResultSchema>;
