/** Versioned SQLite schema; append new versions, never edit an applied one. */
export const SQLITE_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "ledger, balances, runs, seals",
    sql: `
CREATE TABLE balances (
  principal TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  runs_remaining INTEGER NOT NULL CHECK (runs_remaining >= 0),
  PRIMARY KEY (principal, mode)
) STRICT;
CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'consume', 'redemption_grant')),
  principal TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  delta INTEGER NOT NULL,
  runs_remaining_after INTEGER NOT NULL CHECK (runs_remaining_after >= 0),
  run_id TEXT,
  seal_id TEXT,
  idempotency_key TEXT,
  actor TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX ledger_one_consume_per_run ON ledger_entries (run_id) WHERE kind = 'consume';
CREATE UNIQUE INDEX ledger_one_redemption_per_pair ON ledger_entries (principal, seal_id) WHERE kind = 'redemption_grant';
CREATE UNIQUE INDEX ledger_idempotency_key ON ledger_entries (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX ledger_by_principal ON ledger_entries (principal, id);
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
  BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
  BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  project_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  module_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('consumed', 'started', 'completed')),
  consumed_at TEXT NOT NULL,
  ledger_entry_id INTEGER NOT NULL REFERENCES ledger_entries (id),
  runs_remaining_after INTEGER NOT NULL,
  category_id TEXT,
  inputs_sha256 TEXT,
  image_reference TEXT,
  image_digest TEXT,
  started_at TEXT,
  outputs_sha256 TEXT,
  run_manifest_sha256 TEXT,
  completed_at TEXT,
  seal_id TEXT
) STRICT;
CREATE TABLE seals (
  seal_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE REFERENCES runs (run_id),
  principal TEXT NOT NULL,
  mode TEXT NOT NULL,
  key_id TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  bundle_json TEXT NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0,
  revoked_reason TEXT
) STRICT;
`,
  },
  {
    version: 2,
    name: "rerun credits, run funding, revocation time, no replace on the ledger",
    // issue 16: a redeemed seal gives a rerun credit bound to (principal, project, mode), kept
    // apart from purchased runs so it can pay for nothing else. INSERT OR REPLACE deletes the row
    // it collides with without firing DELETE triggers (SQLite "ON CONFLICT" docs, REPLACE), so
    // the ledger refuses any insert that collides, on the key or on a unique index.
    sql: `
ALTER TABLE runs ADD COLUMN funding TEXT NOT NULL DEFAULT 'purchased' CHECK (funding IN ('purchased', 'rerun'));
ALTER TABLE runs ADD COLUMN rerun_of TEXT;
ALTER TABLE seals ADD COLUMN revoked_at TEXT;
CREATE TABLE rerun_credits (
  origin_seal_id TEXT NOT NULL REFERENCES seals (seal_id),
  principal TEXT NOT NULL,
  project_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  granted_entry_id INTEGER NOT NULL REFERENCES ledger_entries (id),
  used_run_id TEXT UNIQUE,
  PRIMARY KEY (origin_seal_id, principal)
) STRICT;
CREATE INDEX rerun_credits_unused ON rerun_credits (principal, mode, project_id) WHERE used_run_id IS NULL;
CREATE TRIGGER ledger_entries_no_replace BEFORE INSERT ON ledger_entries
  WHEN EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.id)
    OR (NEW.kind = 'consume' AND EXISTS (SELECT 1 FROM ledger_entries WHERE kind = 'consume' AND run_id = NEW.run_id))
    OR (NEW.kind = 'redemption_grant' AND EXISTS (SELECT 1 FROM ledger_entries
         WHERE kind = 'redemption_grant' AND principal = NEW.principal AND seal_id = NEW.seal_id))
    OR (NEW.idempotency_key IS NOT NULL AND EXISTS (SELECT 1 FROM ledger_entries WHERE idempotency_key = NEW.idempotency_key))
  BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
`,
  },
  {
    version: 3,
    name: "transparency log of seals",
    // issue 30: one leaf per issued or revoked seal, appended in the transaction that issues or
    // revokes it; the hash of every complete subtree (RFC 9162 §2.1.1), so a proof reads at most
    // 2·log2(n) rows. Both tables are append-only: a rewritten leaf would fork the log.
    sql: `
CREATE TABLE log_leaves (
  leaf_index INTEGER PRIMARY KEY,
  seal_id TEXT NOT NULL REFERENCES seals (seal_id),
  event TEXT NOT NULL CHECK (event IN ('issued', 'revoked')),
  entry TEXT NOT NULL,
  UNIQUE (seal_id, event)
) STRICT;
CREATE TABLE log_hashes (
  level INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  hash BLOB NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (level, idx)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER log_leaves_no_update BEFORE UPDATE ON log_leaves
  BEGIN SELECT RAISE(ABORT, 'log_leaves is append-only'); END;
CREATE TRIGGER log_leaves_no_delete BEFORE DELETE ON log_leaves
  BEGIN SELECT RAISE(ABORT, 'log_leaves is append-only'); END;
CREATE TRIGGER log_hashes_no_update BEFORE UPDATE ON log_hashes
  BEGIN SELECT RAISE(ABORT, 'log_hashes is append-only'); END;
CREATE TRIGGER log_hashes_no_delete BEFORE DELETE ON log_hashes
  BEGIN SELECT RAISE(ABORT, 'log_hashes is append-only'); END;
CREATE TRIGGER log_leaves_no_replace BEFORE INSERT ON log_leaves
  WHEN EXISTS (SELECT 1 FROM log_leaves WHERE leaf_index = NEW.leaf_index
                 OR (seal_id = NEW.seal_id AND event = NEW.event))
  BEGIN SELECT RAISE(ABORT, 'log_leaves is append-only'); END;
CREATE TRIGGER log_hashes_no_replace BEFORE INSERT ON log_hashes
  WHEN EXISTS (SELECT 1 FROM log_hashes WHERE level = NEW.level AND idx = NEW.idx)
  BEGIN SELECT RAISE(ABORT, 'log_hashes is append-only'); END;
`,
  },
];
