import { z } from "zod";
import { modeSchema } from "./entitlement-requests.ts";

// Read-only views of the ledger (issue 14): a caller's balance, every principal's balances and
// the ledger itself, paged by keyset so a page never shifts when new lines are appended.

const principal = z.string().describe("caller identity: verified email (Google) or subject");
const limit = z.coerce.number().int().min(1).max(1000).default(100).describe("page size, 1-1000");

/** Runs left per mode. */
export const balancesSchema = z.object({
  standard: z.number().int(),
  deep: z.number().int(),
});

/** `GET /api/entitlement/balance`: the caller's runs by mode. */
export const balanceResponseSchema = z.object({ principal, balances: balancesSchema });

/** Query of `GET /api/admin/principals`. */
export const principalsQuerySchema = z.object({
  after: z.string().min(1).max(320).optional().describe("the last principal of the previous page"),
  limit,
});
export type PrincipalsQuery = z.infer<typeof principalsQuerySchema>;

/** One principal's balances. */
export const principalBalancesSchema = z.object({ principal, balances: balancesSchema });
export type PrincipalBalances = z.infer<typeof principalBalancesSchema>;

/** `GET /api/admin/principals`: principals in byte order; `next_after` is null on the last page. */
export const principalsResponseSchema = z.object({
  principals: z.array(principalBalancesSchema),
  next_after: z.string().nullable(),
});

/** Query of `GET /api/admin/ledger`. */
export const ledgerQuerySchema = z.object({
  principal: z.string().min(1).max(320).optional().describe("only this principal's lines"),
  after: z.coerce.number().int().min(0).optional().describe("the last ledger id of the previous page"),
  limit,
});
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;

/** One append-only ledger line. */
export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(["grant", "consume", "redemption_grant"]),
  principal,
  mode: modeSchema,
  delta: z.number().int().describe("signed change of the balance"),
  runs_remaining_after: z.number().int(),
  run_id: z.string().nullable(),
  seal_id: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  actor: z.string().describe("who: the principal, or admin:<token fingerprint>"),
  reason: z.string(),
  created_at: z.string(),
});

/** `GET /api/admin/ledger`: oldest first, newest last; `next_after` is null on the last page. */
export const ledgerResponseSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  next_after: z.number().int().nullable(),
});
