import { z } from "zod";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { logProofSchema } from "../seal/log-proof-file.ts";
import { SEAL_STATES } from "../seal/seal-reason-code.ts";
import { modeSchema } from "./entitlement-requests.ts";
import { trustedKeySchema } from "./trusted-key.ts";

// Response shapes (docs/contracts/entitlement-http.md): the service's OpenAPI document and
// ledger types derive from them, and the runner's client validates every answer with them.

const principal = z.string().describe("caller identity: verified email (Google) or subject");

export const checkResponseSchema = z.object({
  run_id: z.string(),
  principal,
  available: z.literal(true),
  mode: modeSchema,
  runs_remaining: z.number().int().describe("runs left for that mode"),
  already_consumed: z.boolean().describe("true when this caller already consumed this run_id"),
});

export const consumeResponseSchema = z.object({
  run_id: z.string(),
  principal,
  mode: modeSchema,
  consumed_at: z.string().describe("ISO 8601 instant of the original consume"),
  ledger_entry_id: z.number().int(),
  runs_remaining: z.number().int().describe("balance right after the original consume"),
});

export const runStartResponseSchema = z.object({
  run_id: z.string(),
  state: z.literal("started"),
  started_at: z.string(),
});

export const sealBundleSchema = z.object({
  seal_id: z.string(),
  payload: z.record(z.string(), z.unknown()).describe("the signed seal payload (svc.seal/v1)"),
  seal_json: z.string().describe(`exact signed canonical bytes: write as ${RUN_FILES.sealJson}`),
  seal_sig: z.string().describe(`base64 Ed25519 signature + newline: ${RUN_FILES.sealSignature}`),
  seal_svg: z.string().describe(RUN_FILES.sealSvg),
  public_key_pem: z.string(),
  key_id: z.string(),
  verify_md: z.string().describe(RUN_FILES.sealInstructions),
});

export const runCompleteResponseSchema = z.object({
  run_id: z.string(),
  state: z.literal("completed"),
  seal: sealBundleSchema,
  // issue 30 item 3: optional, so a runner keeps working with an issuer from before the log
  log: logProofSchema
    .optional()
    .describe(
      `the seal's leaf in the issuer's log, its inclusion proof and the checkpoint: ${RUN_FILES.sealLogProof}`,
    ),
  // issue 30 item 6: present when run_complete carried `provenance` and the seal's key still signs
  provenance: z
    .string()
    .optional()
    .describe(
      `exact bytes of ${RUN_FILES.sealProvenance}: a DSSE envelope (application/vnd.in-toto+json) of the in-toto Statement v1 with a SLSA Provenance v1 predicate, signed with the seal's key`,
    ),
});

/** Verification states shared by the service, the CLI and the page (contract, "States"). */
export const sealStateSchema = z.enum(SEAL_STATES);

export const sealVerifyResponseSchema = z.object({
  state: sealStateSchema,
  reason: z.string(),
  reason_code: z
    .string()
    .nullable()
    .describe("stable code of the deciding failure (core SEAL_REASON_CODES); null when VERIFIED"),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
  seal_id: z.string().optional().describe("VERIFIED and REVOKED only"),
  canonical_svg: z
    .string()
    .optional()
    .describe(
      "VERIFIED and REVOKED only: the canonical rendering of the signed payload, to show as the trusted picture",
    ),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the signed payload; VERIFIED and REVOKED only (never echoed from an unverified upload)"),
  issued_here: z
    .boolean()
    .optional()
    .describe(
      "this service issued exactly this seal: true only for the payload recorded under seal_id; false with state NOT_ISSUED_HERE or ISSUED_SEAL_MISMATCH",
    ),
  revoked: z.boolean().optional(),
  revoked_at: z.string().nullable().optional().describe("REVOKED only: when the issuer revoked it"),
  revoked_reason: z.string().nullable().optional().describe("REVOKED only: why"),
});

export const redeemResponseSchema = z.object({
  seal_id: z.string(),
  principal,
  granted_runs: z.literal(1),
  mode: modeSchema,
  project_id: z.string().describe("the rerun credit pays only for a run of this project, principal and mode"),
  runs_remaining: z.number().int().describe("runs left for that mode: purchased plus unused rerun credits"),
});

export const issueResponseSchema = z.object({
  principal,
  mode: modeSchema,
  granted: z.number().int(),
  runs_remaining: z.number().int(),
  ledger_entry_id: z.number().int(),
  replayed: z.boolean().describe("true when an earlier grant with this idempotency_key was returned"),
});

export const revokeResponseSchema = z.object({
  seal_id: z.string(),
  revoked: z.literal(true),
});

export const releasedRunnersResponseSchema = z.object({
  digests: z
    .array(z.string().regex(/^sha256:[0-9a-f]{64}$/))
    .nullable()
    .describe(
      "content digests of the runner images this issuer released (SVC_RELEASED_RUNNER_DIGESTS); null when it publishes no list",
    ),
});

export const trustedKeysResponseSchema = z.object({
  keys: z.array(trustedKeySchema.required()),
});

/** The error envelope of every non-2xx answer (docs/contracts/entitlement-http.md "Errors"). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().describe("stable error code, see the README's error table"),
    message: z.string(),
    request_id: z.string(),
  }),
});

export type CheckResponse = z.infer<typeof checkResponseSchema>;
export type ConsumeResponse = z.infer<typeof consumeResponseSchema>;
export type RunStartResponse = z.infer<typeof runStartResponseSchema>;
export type SealBundleResponse = z.infer<typeof sealBundleSchema>;
export type RunCompleteResponse = z.infer<typeof runCompleteResponseSchema>;
export type RedeemResponse = z.infer<typeof redeemResponseSchema>;
export type IssueResponse = z.infer<typeof issueResponseSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
