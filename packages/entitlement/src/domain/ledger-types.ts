import type { RunMode } from "./request-schemas.ts";

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

export type LedgerEntryKind = "grant" | "consume" | "redemption_grant";

/** One append-only ledger line: who, when, why, and the signed change of the balance. */
export interface LedgerEntry {
  readonly id: number;
  readonly kind: LedgerEntryKind;
  readonly principal: string;
  readonly mode: RunMode;
  readonly delta: number;
  readonly runs_remaining_after: number;
  readonly run_id: string | null;
  readonly seal_id: string | null;
  readonly idempotency_key: string | null;
  readonly actor: string;
  readonly reason: string;
  readonly created_at: string;
}

/** The seal bundle as returned by run_complete (snake_case, contract). */
export interface SealBundleRecord {
  readonly seal_id: string;
  readonly payload: Record<string, unknown>;
  readonly seal_json: string;
  readonly seal_sig: string;
  readonly seal_svg: string;
  readonly public_key_pem: string;
  readonly key_id: string;
  readonly verify_md: string;
}

export interface CheckResult {
  readonly run_id: string;
  readonly principal: string;
  readonly available: true;
  readonly mode: RunMode;
  readonly runs_remaining: number;
  readonly already_consumed: boolean;
}

export interface ConsumeResult {
  readonly run_id: string;
  readonly principal: string;
  readonly mode: RunMode;
  readonly consumed_at: string;
  readonly ledger_entry_id: number;
  readonly runs_remaining: number;
}

export interface RunStartResult {
  readonly run_id: string;
  readonly state: "started";
  readonly started_at: string;
}

export interface RunCompleteResult {
  readonly run_id: string;
  readonly state: "completed";
  readonly seal: SealBundleRecord;
}

export interface GrantRequest {
  readonly principal: string;
  readonly mode: RunMode;
  readonly runs: number;
  readonly idempotency_key?: string | undefined;
  readonly reason?: string | undefined;
  /** Who granted: e.g. `admin:<token fingerprint>`. Never the token itself. */
  readonly actor: string;
}

export interface GrantResult {
  readonly principal: string;
  readonly mode: RunMode;
  readonly granted: number;
  readonly runs_remaining: number;
  readonly ledger_entry_id: number;
  readonly replayed: boolean;
}

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

export interface RedeemResult {
  readonly seal_id: string;
  readonly principal: string;
  readonly granted_runs: 1;
  readonly mode: RunMode;
  /** The rerun credit pays only for a run of this project (and this principal and mode). */
  readonly project_id: string;
  readonly runs_remaining: number;
}

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
}
