import { z } from "zod";
import { logProofSchema } from "../seal/log-proof-file.ts";

// The seal log's read endpoints (issue 30 item 3): public, read-only, paged and bounded. Every
// hash is 32 bytes in standard base64, as in the C2SP checkpoint.

const base64Hash = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);
const index = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Query of `GET /api/log/proof/inclusion`: a leaf by index, or a seal's leaf by seal id and event. */
export const inclusionQuerySchema = z
  .object({
    leaf_index: index.optional(),
    seal_id: z.string().min(1).max(100).optional(),
    event: z
      .enum(["issued", "revoked"])
      .default("issued")
      .describe("with seal_id: which of the seal's leaves"),
    tree_size: index.optional().describe("prove against the tree of this size (default: the current size)"),
  })
  .refine((query) => (query.leaf_index === undefined) !== (query.seal_id === undefined), {
    message: "give exactly one of leaf_index and seal_id",
  });

/** `GET /api/log/proof/inclusion`: the same record run_complete returns and the runner stores. */
export const inclusionResponseSchema = logProofSchema;

/** Query of `GET /api/log/proof/consistency`. */
export const consistencyQuerySchema = z.object({
  from: index.describe("the older tree size"),
  to: index.optional().describe("the newer tree size (default: the current size)"),
});

/** `GET /api/log/proof/consistency`: RFC 9162 §2.1.4 proof between two tree sizes. */
export const consistencyResponseSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  consistency_proof: z.array(base64Hash),
  checkpoint: z.string().describe("C2SP checkpoint of the tree of size `to`"),
});

/** Query of `GET /api/log/entries`. */
export const logEntriesQuerySchema = z.object({
  start: index.default(0).describe("first leaf index"),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe("page size, 1-1000"),
});

/** `GET /api/log/entries`: leaves in order; pass next_start as start for the next page. */
export const logEntriesResponseSchema = z.object({
  entries: z.array(z.object({ leaf_index: z.number().int(), entry: z.string() })),
  next_start: z.number().int().nullable(),
});
