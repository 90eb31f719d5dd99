import type { RunMode } from "@svc/core";
import type { LedgerEntry, RunRecord, SealRecord } from "../domain/ledger-types.ts";

// Both drivers hand back plain rows; node:sqlite gives numbers, pg gives strings for BIGINT.
type Row = Record<string, unknown>;

const text = (row: Row, key: string): string => String(row[key]);
const nullableText = (row: Row, key: string): string | null => (row[key] == null ? null : String(row[key]));
const int = (row: Row, key: string): number => Number(row[key]);

export function toRunRecord(row: Row): RunRecord {
  return {
    run_id: text(row, "run_id"),
    principal: text(row, "principal"),
    project_id: text(row, "project_id"),
    mode: text(row, "mode") as RunMode,
    module_id: text(row, "module_id"),
    state: text(row, "state") as RunRecord["state"],
    consumed_at: text(row, "consumed_at"),
    ledger_entry_id: int(row, "ledger_entry_id"),
    runs_remaining_after: int(row, "runs_remaining_after"),
    category_id: nullableText(row, "category_id"),
    inputs_sha256: nullableText(row, "inputs_sha256"),
    image_reference: nullableText(row, "image_reference"),
    image_digest: nullableText(row, "image_digest"),
    started_at: nullableText(row, "started_at"),
    outputs_sha256: nullableText(row, "outputs_sha256"),
    run_manifest_sha256: nullableText(row, "run_manifest_sha256"),
    completed_at: nullableText(row, "completed_at"),
    seal_id: nullableText(row, "seal_id"),
    funding: text(row, "funding") === "rerun" ? "rerun" : "purchased",
    rerun_of: nullableText(row, "rerun_of"),
  };
}

export function toLedgerEntry(row: Row): LedgerEntry {
  return {
    id: int(row, "id"),
    kind: text(row, "kind") as LedgerEntry["kind"],
    principal: text(row, "principal"),
    mode: text(row, "mode") as RunMode,
    delta: int(row, "delta"),
    runs_remaining_after: int(row, "runs_remaining_after"),
    run_id: nullableText(row, "run_id"),
    seal_id: nullableText(row, "seal_id"),
    idempotency_key: nullableText(row, "idempotency_key"),
    actor: text(row, "actor"),
    reason: text(row, "reason"),
    created_at: text(row, "created_at"),
  };
}

/** Columns of a seal joined with its run, as toSealRecord reads them. */
export const SEAL_RECORD_SELECT = `SELECT s.seal_id, s.run_id, s.principal, s.mode, s.revoked, s.revoked_reason,
  s.revoked_at, s.bundle_json, r.project_id, r.funding FROM seals s JOIN runs r ON r.run_id = s.run_id`;

export function toSealRecord(row: Row): SealRecord {
  return {
    seal_id: text(row, "seal_id"),
    run_id: text(row, "run_id"),
    principal: text(row, "principal"),
    project_id: text(row, "project_id"),
    mode: text(row, "mode") as RunMode,
    funding: text(row, "funding") === "rerun" ? "rerun" : "purchased",
    // node:sqlite gives 0/1, pg gives a boolean
    revoked: row.revoked === true || Number(row.revoked) === 1,
    revoked_reason: nullableText(row, "revoked_reason"),
    revoked_at: nullableText(row, "revoked_at"),
    // the bundle as run_complete answered it; its seal_json is the payload exactly as signed
    seal_json: (JSON.parse(text(row, "bundle_json")) as { seal_json: string }).seal_json,
  };
}
