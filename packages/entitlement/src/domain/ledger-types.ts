import type {
  CheckResponse,
  ConsumeResponse,
  IssueResponse,
  ledgerEntrySchema,
  RedeemResponse,
  RunCompleteResponse,
  RunMode,
  RunStartResponse,
  SealBundleResponse,
} from "@svc/core";
import type { z } from "zod";

// The answers the store gives are the HTTP contract's response shapes (core/src/contracts), so
// a handler cannot return a field the contract does not name, nor miss one it does.

/** Lifecycle of a run (spec §3: check, consume, run_start, run_complete). */
export type RunState = "consumed" | "started" | "completed";

/**
 * What paid for a run (issue 16): a purchased run (an admin grant) or a rerun credit, which a
 * redeemed seal gives and which can pay only for a run of the same principal, project and mode.
 */
export type RunFunding = "purchased" | "rerun";

/** A run as the store keeps it. Fields of later steps are null until that step happened. */
export interface RunRecord {
  readonly run_id: string;
  readonly principal: string;
  readonly project_id: string;
  readonly mode: RunMode;
  readonly module_id: string;
  readonly state: RunState;
  readonly consumed_at: string;
  readonly ledger_entry_id: number;
  /** Balance right after the consume, so a retried consume gets the identical answer. */
  readonly runs_remaining_after: number;
  readonly category_id: string | null;
  readonly inputs_sha256: string | null;
  readonly image_reference: string | null;
  readonly image_digest: string | null;
  readonly started_at: string | null;
  readonly outputs_sha256: string | null;
  readonly run_manifest_sha256: string | null;
  readonly completed_at: string | null;
  readonly seal_id: string | null;
  readonly funding: RunFunding;
  /** The seal whose redemption paid for this run; null for a purchased run. */
  readonly rerun_of: string | null;
}

/** What a consume may spend, read under the store's lock. */
export interface ConsumeFunds {
  /** Purchased runs left for the principal and mode. */
  readonly purchased: number;
  /** The oldest unused rerun credit for exactly this principal, project and mode (its origin seal). */
  readonly creditFrom: string | null;
}

/** A rerun credit: the one run a redeemed seal gives (issue 16). */
export interface RerunCredit {
  readonly origin_seal_id: string;
  readonly principal: string;
  readonly project_id: string;
  readonly mode: RunMode;
}

export type LedgerEntryKind = LedgerEntry["kind"];

/** One append-only ledger line: who, when, why, and the signed change of the balance. */
export type LedgerEntry = Readonly<z.infer<typeof ledgerEntrySchema>>;

/** The seal bundle as returned by run_complete (snake_case, contract). */
export type SealBundleRecord = Readonly<SealBundleResponse>;

export type CheckResult = Readonly<CheckResponse>;

export type ConsumeResult = Readonly<ConsumeResponse>;

export type RunStartResult = Readonly<RunStartResponse>;

export type RunCompleteResult = Readonly<RunCompleteResponse>;

export interface GrantRequest {
  readonly principal: string;
  readonly mode: RunMode;
  readonly runs: number;
  readonly idempotency_key?: string | undefined;
  readonly reason?: string | undefined;
  /** Who granted: e.g. `admin:<token fingerprint>`. Never the token itself. */
  readonly actor: string;
}

export type GrantResult = Readonly<IssueResponse>;

/**
 * Who may redeem a seal (issue 9 item 6): `issued_principal` (default) only the principal the
 * seal was issued to, once; `any_principal` each principal once (spec §2.4 read literally).
 */
export type RedeemScope = "issued_principal" | "any_principal";

export interface RedeemRequest {
  readonly seal_id: string;
  /** The principal the rerun credit goes to: the caller, or the seal's principal for an admin. */
  readonly principal: string | null;
  readonly scope: RedeemScope;
  /** Who asked: the principal, or `admin:<token fingerprint>`. */
  readonly actor: string;
}

export type RedeemResult = Readonly<RedeemResponse>;

export interface SealRecord {
  readonly seal_id: string;
  readonly run_id: string;
  readonly principal: string;
  readonly project_id: string;
  readonly mode: RunMode;
  readonly funding: RunFunding;
  readonly revoked: boolean;
  readonly revoked_reason: string | null;
  readonly revoked_at: string | null;
  /**
   * The signed payload's canonical bytes as issued (the bundle's `seal_json`): the issuer vouches
   * only for this exact seal under its id (issue 38 item 1).
   */
  readonly seal_json: string;
}
