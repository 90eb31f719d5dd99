import type {
  PrincipalBalances,
  RunCompleteFields,
  RunMode,
  RunParams,
  RunStartFields,
  SubtreeCoordinate,
} from "@svc/core";
import type {
  CheckResult,
  ConsumeResult,
  GrantRequest,
  GrantResult,
  LedgerEntry,
  RedeemRequest,
  RedeemResult,
  RunCompleteResult,
  RunRecord,
  RunStartResult,
  SealBundleRecord,
  SealRecord,
} from "../domain/ledger-types.ts";
import type { LedgerEventListener } from "./ledger-events.ts";

/**
 * Builds the seal of a run that has just been completed. Called inside the store's transaction,
 * so it must be pure and fast (signing only); the store persists what it returns.
 */
export type IssueSeal = (run: RunRecord, fields: RunCompleteFields, issuedAt: Date) => SealBundleRecord;

/**
 * The ledger of runs (ARCHITECTURE.md convention 3). Every mutating method is one transaction in
 * which the pure rules of `domain/ledger-rules.ts` decide and the balance and the append-only
 * ledger change together. Errors are EntitlementError with the contract's codes.
 */
/** The migration that created the seal log, in both stores' migration lists ("transparency log of seals"). */
export const LOG_MIGRATION_VERSION = 3;

export interface LedgerStore {
  readonly kind: "sqlite" | "postgres";
  /** Tells `listener` each consume, grant, redemption and seal after its commit (metrics). */
  subscribe(listener: LedgerEventListener): void;
  /** Throws when the database cannot answer (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Runs left for the principal and mode: purchased runs plus unused rerun credits (= sum of ledger deltas). */
  getBalance(principal: string, mode: RunMode): Promise<number>;
  getRun(runId: string): Promise<RunRecord | null>;
  checkRun(principal: string, params: RunParams): Promise<CheckResult>;
  consumeRun(principal: string, params: RunParams): Promise<ConsumeResult>;
  startRun(principal: string, fields: RunStartFields): Promise<RunStartResult>;
  completeRun(principal: string, fields: RunCompleteFields, issueSeal: IssueSeal): Promise<RunCompleteResult>;
  grantRuns(request: GrantRequest): Promise<GrantResult>;
  /**
   * Gives one rerun credit for a seal issued here (spec §4.1, issue 16), bound to the seal's
   * project and mode; the rules are decideRedemption's.
   */
  redeemSeal(request: RedeemRequest): Promise<RedeemResult>;
  findSeal(sealId: string): Promise<SealRecord | null>;
  revokeSeal(sealId: string, reason: string): Promise<boolean>;
  /** Ledger lines in id order, optionally for one principal. */
  listLedger(principal?: string): Promise<LedgerEntry[]>;
  /** Principals holding a balance row, in byte order, strictly after `after` (keyset page). */
  listPrincipalBalances(page: { after?: string | undefined; limit: number }): Promise<PrincipalBalances[]>;
  /** Ledger lines with id greater than `afterId`, oldest first, optionally for one principal. */
  listLedgerPage(page: {
    principal?: string | undefined;
    afterId?: number | undefined;
    limit: number;
  }): Promise<LedgerEntry[]>;
  /**
   * The seal log (issue 30): completeRun appends an `issued` leaf and the first revokeSeal of a
   * seal a `revoked` leaf, each in its own transaction. Leaves are numbered from 0 in commit order.
   */
  logSize(): Promise<number>;
  /**
   * When this store began its log (the log migration's applied_at, ISO 8601): every seal issued
   * since has its leaf and its folder a `seal/log-proof.json`; seals before it were logged later
   * (backfilled) but their folders carry no proof. Published as each key's `log_from` (issue 38 item 2).
   */
  logStartedAt(): Promise<string>;
  /** The stored hashes of complete subtrees, in the order asked; throws when one is not complete. */
  logSubtreeHashes(coordinates: readonly SubtreeCoordinate[]): Promise<Buffer[]>;
  /** The index of a seal's leaf for `event`, or null. */
  logLeafIndex(sealId: string, event: LogEvent): Promise<number | null>;
  /** Leaves from `start` (inclusive), at most `limit`, oldest first. */
  logEntries(start: number, limit: number): Promise<LogLeafRecord[]>;
}

/** What a leaf records (core log-entry.ts `event`). */
export type LogEvent = "issued" | "revoked";

/** A stored leaf: its index and its bytes (canonical JSON of core's LogEntry). */
export interface LogLeafRecord {
  readonly leaf_index: number;
  readonly entry: string;
}

/** Options every store takes. */
export interface LedgerStoreOptions {
  /** Injected clock so tests and the seal can agree on instants. */
  readonly now?: () => Date;
}
