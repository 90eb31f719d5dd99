/** Versioned PostgreSQL schema; append new versions, never edit an applied one. */
export const POSTGRES_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "ledger, balances, runs, seals",
    sql: `
CREATE TABLE balances (
  principal TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  runs_remaining INTEGER NOT NULL CHECK (runs_remaining >= 0),
  PRIMARY KEY (principal, mode)
);
CREATE TABLE ledger_entries (
  id BIGSERIAL PRIMARY KEY,
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
);
CREATE UNIQUE INDEX ledger_one_consume_per_run ON ledger_entries (run_id) WHERE kind = 'consume';
CREATE UNIQUE INDEX ledger_one_redemption_per_pair ON ledger_entries (principal, seal_id) WHERE kind = 'redemption_grant';
CREATE UNIQUE INDEX ledger_idempotency_key ON ledger_entries (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX ledger_by_principal ON ledger_entries (principal, id);
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only';
END
$$;
CREATE TRIGGER ledger_entries_no_change BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  project_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  module_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('consumed', 'started', 'completed')),
  consumed_at TEXT NOT NULL,
  ledger_entry_id BIGINT NOT NULL REFERENCES ledger_entries (id),
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
);
CREATE TABLE seals (
  seal_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE REFERENCES runs (run_id),
  principal TEXT NOT NULL,
  mode TEXT NOT NULL,
  key_id TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  bundle_json TEXT NOT NULL,
  revoked BOOLEAN NOT NULL DEFAULT FALSE,
  revoked_reason TEXT
);
`,
  },
  {
    version: 2,
    name: "64-bit balances, rerun credits, run funding, revocation time",
    // issue 16: balances past 2^31 runs answered 500; a redeemed seal gives a rerun credit bound
    // to (principal, project, mode), kept apart from purchased runs so it can pay for nothing else.
    // Changing a column type rewrites the table without firing row triggers.
    sql: `
ALTER TABLE balances ALTER COLUMN runs_remaining TYPE BIGINT;
ALTER TABLE ledger_entries ALTER COLUMN delta TYPE BIGINT, ALTER COLUMN runs_remaining_after TYPE BIGINT;
ALTER TABLE runs ALTER COLUMN runs_remaining_after TYPE BIGINT;
ALTER TABLE runs ADD COLUMN funding TEXT NOT NULL DEFAULT 'purchased' CHECK (funding IN ('purchased', 'rerun'));
ALTER TABLE runs ADD COLUMN rerun_of TEXT;
ALTER TABLE seals ADD COLUMN revoked_at TEXT;
CREATE TABLE rerun_credits (
  origin_seal_id TEXT NOT NULL REFERENCES seals (seal_id),
  principal TEXT NOT NULL,
  project_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('standard', 'deep')),
  granted_entry_id BIGINT NOT NULL REFERENCES ledger_entries (id),
  used_run_id TEXT UNIQUE,
  PRIMARY KEY (origin_seal_id, principal)
);
CREATE INDEX rerun_credits_unused ON rerun_credits (principal, mode, project_id) WHERE used_run_id IS NULL;
`,
  },
  {
    version: 3,
    name: "transparency log of seals",
    // issue 30: one leaf per issued or revoked seal, appended in the transaction that issues or
    // revokes it; log_head is the one row appends lock (FOR UPDATE), so leaf order is commit
    // order; the hash of every complete subtree (RFC 9162 §2.1.1) makes a proof 2·log2(n) reads.
    sql: `
CREATE TABLE log_head (id INTEGER PRIMARY KEY CHECK (id = 1), size BIGINT NOT NULL CHECK (size >= 0));
INSERT INTO log_head (id, size) VALUES (1, 0);
CREATE TABLE log_leaves (
  leaf_index BIGINT PRIMARY KEY,
  seal_id TEXT NOT NULL REFERENCES seals (seal_id),
  event TEXT NOT NULL CHECK (event IN ('issued', 'revoked')),
  entry TEXT NOT NULL,
  UNIQUE (seal_id, event)
);
CREATE TABLE log_hashes (
  level INTEGER NOT NULL,
  idx BIGINT NOT NULL,
  hash BYTEA NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (level, idx)
);
CREATE FUNCTION log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER log_leaves_append_only BEFORE UPDATE OR DELETE ON log_leaves
  FOR EACH ROW EXECUTE FUNCTION log_append_only();
CREATE TRIGGER log_hashes_append_only BEFORE UPDATE OR DELETE ON log_hashes
  FOR EACH ROW EXECUTE FUNCTION log_append_only();
`,
  },
];
