import type { RunCompleteFields, RunParams, RunStartFields } from "@svc/core";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type {
  CheckResult,
  ConsumeFunds,
  ConsumeResult,
  GrantRequest,
  GrantResult,
  LedgerEntry,
  RedeemRequest,
  RedeemResult,
  RunRecord,
  SealRecord,
} from "./ledger-types.ts";

// Pure ledger and lifecycle rules (ARCHITECTURE.md convention 1): the stores load the rows,
// ask these functions what to do, and apply the answer inside one transaction.

/** True when an existing run was consumed by `principal` with exactly these parameters. */
export function isSameRun(run: RunRecord, principal: string, params: RunParams): boolean {
  return (
    run.principal === principal &&
    run.project_id === params.project_id &&
    run.mode === params.mode &&
    run.module_id === params.module_id
  );
}

export type ConsumeDecision =
  | { kind: "replay"; answer: ConsumeResult }
  | { kind: "charge"; funding: "purchased" }
  | { kind: "charge"; funding: "rerun"; rerunOf: string };

/**
 * Decides a consume (issue: idempotent for the same caller and parameters; another principal or
 * other parameters is 409; no run left is 402). A rerun credit for exactly this project and mode
 * pays first (issue 16: it can pay for nothing else); otherwise a purchased run. `funds` is read
 * under the same lock.
 */
export function decideConsume(
  run: RunRecord | null,
  principal: string,
  params: RunParams,
  funds: ConsumeFunds,
): ConsumeDecision {
  if (run !== null) {
    if (!isSameRun(run, principal, params)) throw new EntitlementError("RUN_ID_CONFLICT");
    return { kind: "replay", answer: consumeAnswerOf(run) };
  }
  if (funds.creditFrom !== null) return { kind: "charge", funding: "rerun", rerunOf: funds.creditFrom };
  if (funds.purchased < 1)
    // issues 13/14: the 402 names the principal it checked, so a caller can tell identity from balance
    throw new EntitlementError(
      "ENTITLEMENT_EXHAUSTED",
      `no run is left for principal ${principal} in mode ${params.mode} (project ${params.project_id})`,
    );
  return { kind: "charge", funding: "purchased" };
}

/** The consume answer a run was given, reproduced byte for byte on retry. */
export function consumeAnswerOf(run: RunRecord): ConsumeResult {
  return {
    run_id: run.run_id,
    principal: run.principal,
    mode: run.mode,
    consumed_at: run.consumed_at,
    ledger_entry_id: run.ledger_entry_id,
    runs_remaining: run.runs_remaining_after,
  };
}

/** Decides a check: no side effects; the same 402/409 rules as consume. */
export function decideCheck(
  run: RunRecord | null,
  principal: string,
  params: RunParams,
  funds: ConsumeFunds,
): { already_consumed: boolean } {
  const decision = decideConsume(run, principal, params, funds);
  return { already_consumed: decision.kind === "replay" };
}

/** Decides run_start (spec §3 ordering rule): before consume is 422; a retry with the same fields replays. */
export function decideRunStart(
  run: RunRecord | null,
  principal: string,
  fields: RunStartFields,
): "record" | "replay" {
  if (run === null)
    throw new EntitlementError("LIFECYCLE_OUT_OF_ORDER", "run_start before consume of this run_id");
  if (run.principal !== principal) throw new EntitlementError("RUN_ID_CONFLICT");
  if (!isSameRun(run, principal, fields))
    throw new EntitlementError("RUN_START_CONFLICT", "run_start parameters differ from the consumed run");
  if (run.state === "consumed") return "record";
  const same =
    run.category_id === fields.category_id &&
    run.inputs_sha256 === fields.inputs_sha256 &&
    run.image_reference === fields.image.reference &&
    run.image_digest === fields.image.digest;
  if (!same) throw new EntitlementError("RUN_START_CONFLICT");
  return "replay";
}

/** Decides run_complete: before run_start is 422; same hashes replay the same seal; others 409. */
export function decideRunComplete(
  run: RunRecord | null,
  principal: string,
  fields: RunCompleteFields,
): "seal" | "replay" {
  if (run === null)
    throw new EntitlementError("LIFECYCLE_OUT_OF_ORDER", "run_complete before consume of this run_id");
  if (run.principal !== principal) throw new EntitlementError("RUN_ID_CONFLICT");
  if (run.state === "consumed")
    throw new EntitlementError("LIFECYCLE_OUT_OF_ORDER", "run_complete before run_start of this run_id");
  if (run.state === "started") return "seal";
  const same =
    run.outputs_sha256 === fields.outputs_sha256 && run.run_manifest_sha256 === fields.run_manifest_sha256;
  if (!same) throw new EntitlementError("RUN_COMPLETE_CONFLICT");
  return "replay";
}

/**
 * Decides a grant with an idempotency key: the same key and the same grant replays the original
 * answer; the same key for another grant is 409.
 */
export function decideGrant(
  previous: LedgerEntry | null,
  request: GrantRequest,
): { kind: "apply" } | { kind: "replay"; answer: GrantResult } {
  if (previous === null) return { kind: "apply" };
  const same =
    previous.kind === "grant" &&
    previous.principal === request.principal &&
    previous.mode === request.mode &&
    previous.delta === request.runs;
  if (!same) throw new EntitlementError("IDEMPOTENCY_KEY_CONFLICT");
  return {
    kind: "replay",
    answer: {
      principal: previous.principal,
      mode: previous.mode,
      granted: previous.delta,
      runs_remaining: previous.runs_remaining_after,
      ledger_entry_id: previous.id,
      replayed: true,
    },
  };
}

/**
 * The most runs a balance may hold: the largest integer a JSON number carries exactly (2^53 - 1).
 * Both stores count in 64 bits; a grant past this is the caller's error (400), never a 500 or a
 * rounded balance (issue 16 item 2).
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

/** The 400 of a grant that would take the balance past MAX_BALANCE. */
export function balanceLimitError(): EntitlementError {
  return new EntitlementError("REQUEST_INVALID", `field runs: the balance would exceed ${MAX_BALANCE} runs`);
}

/** Throws balanceLimitError when `after` is past MAX_BALANCE. */
export function assertBalanceWithinLimit(after: number): void {
  if (after > MAX_BALANCE) throw balanceLimitError();
}

/** A ledger line before a store appends it (the store adds id, balance after and time). */
export type NewLedgerEntry = Omit<LedgerEntry, "id" | "runs_remaining_after" | "created_at">;

/** Why a consume entry was written, as the ledger records it. */
export function consumeReason(params: RunParams): string {
  return `consume ${params.module_id} run for project ${params.project_id}`;
}

/** The ledger line of one consumed run; `rerunOf` names the seal whose rerun credit paid for it. */
export function consumeEntry(
  principal: string,
  params: RunParams,
  rerunOf: string | null = null,
): NewLedgerEntry {
  return {
    kind: "consume",
    principal,
    mode: params.mode,
    delta: -1,
    run_id: params.run_id,
    seal_id: null,
    idempotency_key: null,
    actor: principal,
    reason:
      rerunOf === null ? consumeReason(params) : `${consumeReason(params)} (rerun credit of ${rerunOf})`,
  };
}

/** The answer of check: a run is available (refusals are thrown by decideCheck). */
export function checkAnswer(
  principal: string,
  params: RunParams,
  /** Runs left for the principal and mode: purchased plus unused rerun credits. */
  balance: number,
  alreadyConsumed: boolean,
): CheckResult {
  return {
    run_id: params.run_id,
    principal,
    available: true,
    mode: params.mode,
    runs_remaining: balance,
    already_consumed: alreadyConsumed,
  };
}

/** The ledger line of an admin grant. */
export function grantEntry(request: GrantRequest): NewLedgerEntry {
  return {
    kind: "grant",
    principal: request.principal,
    mode: request.mode,
    delta: request.runs,
    run_id: null,
    seal_id: null,
    idempotency_key: request.idempotency_key ?? null,
    actor: request.actor,
    reason: request.reason ?? "admin issue",
  };
}

/** The answer of a first (not replayed) grant. */
export function grantAnswer(
  request: GrantRequest,
  ledgerEntryId: number,
  runsRemaining: number,
): GrantResult {
  return {
    principal: request.principal,
    mode: request.mode,
    granted: request.runs,
    runs_remaining: runsRemaining,
    ledger_entry_id: ledgerEntryId,
    replayed: false,
  };
}

/**
 * Decides a redemption (issue 9 item 6, issue 16 item 1) and returns who gets the rerun credit.
 * Refused: a revoked seal (422), a seal whose own run was paid by a rerun credit (422: one
 * purchased run yields at most two sealed runs), another principal's seal under the default
 * scope (403), a second redemption by the same principal (409, spec §4.1 rule 1).
 */
export function decideRedemption(
  seal: SealRecord | null,
  request: RedeemRequest,
  alreadyRedeemedBy: (principal: string) => boolean,
): string {
  if (seal === null) throw new EntitlementError("SEAL_NOT_VERIFIED", "this seal was not issued here");
  if (seal.revoked) throw new EntitlementError("SEAL_NOT_VERIFIED", "the seal is REVOKED");
  if (seal.funding === "rerun")
    throw new EntitlementError(
      "SEAL_NOT_REDEEMABLE",
      "this seal's run was paid by a rerun credit; only a purchased run's seal can be redeemed",
    );
  const principal = request.principal ?? seal.principal;
  if (request.scope === "issued_principal" && principal !== seal.principal)
    throw new EntitlementError(
      "SEAL_NOT_YOURS",
      `principal ${principal} may not redeem a seal issued to another principal`,
    );
  if (alreadyRedeemedBy(principal)) throw new EntitlementError("SEAL_ALREADY_REDEEMED");
  return principal;
}

/** The ledger line of the one rerun credit a redeemed seal gives (spec §4.1, issue 16). */
export function redemptionEntry(principal: string, seal: SealRecord, actor: string): NewLedgerEntry {
  return {
    kind: "redemption_grant",
    principal,
    mode: seal.mode,
    delta: 1,
    run_id: null,
    seal_id: seal.seal_id,
    idempotency_key: null,
    actor,
    reason: `one rerun of project ${seal.project_id} for seal ${seal.seal_id}`,
  };
}

/** The answer of a redemption. */
export function redemptionAnswer(principal: string, seal: SealRecord, runsRemaining: number): RedeemResult {
  return {
    seal_id: seal.seal_id,
    principal,
    granted_runs: 1,
    mode: seal.mode,
    project_id: seal.project_id,
    runs_remaining: runsRemaining,
  };
}
