import { z } from "zod";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { provenanceFactsSchema } from "../seal/provenance-statement.ts";
import { imageRefSchema } from "../seal/seal-payload.ts";
import { CLAIM_STRENGTHS } from "./claim-strength.ts";
import { projectIdSchema, runIdSchema } from "./run-id.ts";

// The entitlement HTTP contract (docs/contracts/entitlement-http.md): the service validates
// requests with these and builds its OpenAPI document from them; the runner's client builds
// requests from the same types. One schema per data shape (ARCHITECTURE.md convention 5): these give the types, the runtime
// checks and the OpenAPI document. Unknown fields are ignored so older clients keep working.

// Module ids are not run ids: they keep their own rule (':' allowed, e.g. vendor:module).
const identifier = (max: number) =>
  z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,${max - 1}}$`),
      `1-${max} characters: letters, digits, '.', '_', ':', '-'`,
    );
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits (SHA-256)");

export const modeSchema = z.enum(["standard", "deep"]).describe("run profile; billed separately");
export type RunMode = z.infer<typeof modeSchema>;

/** Run parameters of check and consume (spec §2.1; defaults from §2.1). */
export const runParamsSchema = z.object({
  run_id: runIdSchema.describe("unique run id, e.g. run_20250101T000000Z (docs/contracts/run-id.md)"),
  project_id: projectIdSchema.describe("project (input folder) id (docs/contracts/run-id.md)"),
  mode: modeSchema.default("standard"),
  module_id: identifier(64).default("computational"),
});
export type RunParams = z.infer<typeof runParamsSchema>;

export const runStartSchema = runParamsSchema.extend({
  category_id: z.string().min(1).max(128).describe("resolved category id"),
  inputs_sha256: sha256.describe("svc-tree/v1 digest of the staged inputs"),
  image: imageRefSchema,
});
export type RunStartFields = z.infer<typeof runStartSchema>;

export const runCompleteSchema = z.object({
  run_id: runIdSchema,
  outputs_sha256: sha256.describe("svc-tree/v1 digest of the outputs (seal/ excluded)"),
  run_manifest_sha256: sha256.describe(`SHA-256 of ${RUN_FILES.manifest}`),
  // issue 37 item 3: optional, so a runner from before it still gets its seal (drawn as before)
  claim_strength: z
    .enum(CLAIM_STRENGTHS)
    .optional()
    .describe(
      `the claim strength the run's ${RUN_FILES.summary} states (SUPPORTED or HYPOTHESIS): signed into the seal payload and drawn on the seal; verifiers refuse a folder whose summary states another`,
    ),
  // issue 30 item 6: optional, so a runner from before the provenance still gets its seal
  provenance: provenanceFactsSchema
    .optional()
    .describe(
      `the files behind outputs_sha256 and inputs_sha256 and the job's policy and module versions: the issuer signs the run's SLSA provenance from them (${RUN_FILES.sealProvenance})`,
    ),
});
export type RunCompleteFields = z.infer<typeof runCompleteSchema>;

export const issueRequestSchema = z.object({
  principal: z.string().min(1).max(320).describe("customer principal: e-mail or subject"),
  runs: z.number().int().min(1).max(100_000).describe("runs to grant"),
  mode: modeSchema.default("standard"),
  idempotency_key: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, "1-128 printable ASCII characters")
    .optional()
    .describe("a retried grant with the same key is not applied twice"),
  reason: z.string().max(500).optional().describe("why the runs are granted (kept in the ledger)"),
});
export type IssueRequest = z.infer<typeof issueRequestSchema>;

export const revokeRequestSchema = z.object({
  seal_id: z.string().regex(/^seal_[0-9a-f]{32}$/, "seal_ followed by 32 lowercase hex digits"),
  reason: z.string().min(1).max(500).describe("why the seal is withdrawn (kept with the seal)"),
});
export type RevokeRequest = z.infer<typeof revokeRequestSchema>;

/** Query of an admin's redemption on a principal's behalf (default: the principal the seal was issued to). */
export const onBehalfQuerySchema = z.object({
  principal: z.string().min(1).max(320).optional().describe("the principal the rerun credit goes to"),
});
