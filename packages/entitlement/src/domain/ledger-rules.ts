import { EntitlementError } from "../errors/entitlement-error.ts";
import type { ConsumeResult, GrantRequest, GrantResult, LedgerEntry, RunRecord } from "./ledger-types.ts";
import type { RunCompleteFields, RunParams, RunStartFields } from "./request-schemas.ts";

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

export type ConsumeDecision = { kind: "replay"; answer: ConsumeResult } | { kind: "charge" };

/**
 * Decides a consume (issue: idempotent for the same caller and parameters; another principal or
 * other parameters is 409; no run left is 402). `balance` is read under the same lock.
 */
export function decideConsume(
  run: RunRecord | null,
  principal: string,
  params: RunParams,
  balance: number,
): ConsumeDecision {
  if (run !== null) {
    if (!isSameRun(run, principal, params)) throw new EntitlementError("RUN_ID_CONFLICT");
    return { kind: "replay", answer: consumeAnswerOf(run) };
  }
  if (balance < 1) throw new EntitlementError("ENTITLEMENT_EXHAUSTED");
  return { kind: "charge" };
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
  balance: number,
): { already_consumed: boolean } {
  if (run !== null) {
    if (!isSameRun(run, principal, params)) throw new EntitlementError("RUN_ID_CONFLICT");
    return { already_consumed: true };
  }
  if (balance < 1) throw new EntitlementError("ENTITLEMENT_EXHAUSTED");
  return { already_consumed: false };
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

/** Seal issuance instant: UTC, second precision, as the seal payload schema requires. */
export function toSealInstant(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
