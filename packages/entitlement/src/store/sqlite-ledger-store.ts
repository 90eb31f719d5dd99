import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { PrincipalBalances, RunCompleteFields, RunMode, RunParams, RunStartFields } from "@svc/core";
import {
  hashLeaf,
  issuedEntryOf,
  type LogEntry,
  logEntryBytes,
  type SubtreeCoordinate,
  siblingsNeededToAppend,
  subtreesCompletedBy,
  toInstant,
} from "@svc/core";
import {
  assertBalanceWithinLimit,
  checkAnswer,
  consumeAnswerOf,
  consumeEntry,
  decideCheck,
  decideConsume,
  decideGrant,
  decideRedemption,
  decideRunComplete,
  decideRunStart,
  grantAnswer,
  grantEntry,
  redemptionAnswer,
  redemptionEntry,
} from "../domain/ledger-rules.ts";
import type {
  CheckResult,
  ConsumeFunds,
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
import { EntitlementError } from "../errors/entitlement-error.ts";
import { type LedgerEvent, LedgerEventHub, type LedgerEventListener } from "./ledger-events.ts";
import {
  type IssueSeal,
  type LedgerStore,
  type LedgerStoreOptions,
  LOG_MIGRATION_VERSION,
  type LogEvent,
  type LogLeafRecord,
} from "./ledger-store.ts";
import { revokedEntryOf } from "./log-entries.ts";
import { ensurePrivateFiles } from "./private-files.ts";
import { SEAL_RECORD_SELECT, toLedgerEntry, toRunRecord, toSealRecord } from "./row-mapping.ts";
import { SqliteGroupCommit } from "./sqlite-group-commit.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.ts";

export interface SqliteLedgerStoreOptions extends LedgerStoreOptions {
  /** Milliseconds a writer waits for another process's lock before failing. */
  readonly busyTimeoutMs?: number;
}

type Row = Record<string, unknown>;
type LogEntrySource = Parameters<typeof issuedEntryOf>[1];

/**
 * The embedded ledger: one SQLite file via `node:sqlite`. WAL + synchronous=FULL so an answered
 * commit survives a crash; every mutation runs in BEGIN IMMEDIATE so the write lock is taken
 * before anything is read (no upgrade deadlock between processes sharing the file). Mutations of
 * the same event-loop turn share that transaction, each in its own savepoint (group commit, see
 * SqliteGroupCommit): one fsync per batch, and no answer before its commit.
 */
export class SqliteLedgerStore implements LedgerStore {
  readonly kind = "sqlite" as const;
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  // prepared once per SQL text: preparing dominates a short transaction otherwise
  readonly #statements = new Map<string, StatementSync>();
  // writes of one event-loop turn share one fsync; each still commits or fails alone
  readonly #batch: SqliteGroupCommit;
  readonly #events = new LedgerEventHub();

  private constructor(db: DatabaseSync, now: () => Date) {
    this.#db = db;
    this.#now = now;
    this.#batch = new SqliteGroupCommit(db);
  }

  /**
   * Opens (creating when missing) the file and applies pending migrations. The file and its
   * -wal/-shm are 0600 (created so, or tightened), its directory 0700 when this creates it.
   */
  static open(path: string, options: SqliteLedgerStoreOptions = {}): SqliteLedgerStore {
    if (path !== ":memory:") {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      ensurePrivateFiles(path, [`${path}-wal`, `${path}-shm`]);
    }
    const db = new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 10_000 });
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA foreign_keys = ON");
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 10_000)}`);
    const store = new SqliteLedgerStore(db, options.now ?? (() => new Date()));
    store.#migrate();
    return store;
  }

  #migrate(): void {
    this.#tx(() => {
      this.#db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
      );
      const applied = new Set(
        this.#all("SELECT version FROM schema_migrations").map((row) => Number(row.version)),
      );
      for (const migration of SQLITE_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.#db.exec(migration.sql);
        this.#run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [
          migration.version,
          migration.name,
          this.#now().toISOString(),
        ]);
      }
      // issue 30: seals issued before the log get their leaves now, oldest first, so the log
      // holds every seal whatever version issued it (once: later seals are logged as issued)
      for (const row of this.#all(
        `SELECT s.seal_id, s.bundle_json, s.revoked, s.revoked_at, s.issued_at FROM seals s
           WHERE NOT EXISTS (SELECT 1 FROM log_leaves l WHERE l.seal_id = s.seal_id AND l.event = 'issued')
           ORDER BY s.issued_at, s.seal_id`,
      )) {
        const bundle = String(row.bundle_json);
        const seal = JSON.parse(bundle) as SealBundleRecord;
        this.#appendLogLeaf(issuedEntryOf(seal.seal_json, seal.payload as LogEntrySource));
        if (Number(row.revoked) === 1)
          this.#appendLogLeaf(revokedEntryOf(bundle, String(row.revoked_at ?? row.issued_at)));
      }
    });
  }

  #tx<T>(work: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #get(sql: string, params: SQLInputValue[] = []): Row | undefined {
    return this.#statement(sql).get(...params) as Row | undefined;
  }

  #all(sql: string, params: SQLInputValue[] = []): Row[] {
    return this.#statement(sql).all(...params) as Row[];
  }

  #run(sql: string, params: SQLInputValue[] = []): number {
    return Number(this.#statement(sql).run(...params).lastInsertRowid);
  }

  /** Purchased runs left (the balances row; rerun credits live in their own table). */
  #purchased(principal: string, mode: RunMode): number {
    const row = this.#get("SELECT runs_remaining FROM balances WHERE principal = ? AND mode = ?", [
      principal,
      mode,
    ]);
    return row === undefined ? 0 : Number(row.runs_remaining);
  }

  #unusedCredits(principal: string, mode: RunMode): number {
    const row = this.#get(
      "SELECT count(*) AS n FROM rerun_credits WHERE principal = ? AND mode = ? AND used_run_id IS NULL",
      [principal, mode],
    );
    return Number(row?.n ?? 0);
  }

  #funds(principal: string, params: RunParams): ConsumeFunds {
    const credit = this.#get(
      `SELECT origin_seal_id FROM rerun_credits WHERE principal = ? AND mode = ? AND project_id = ?
         AND used_run_id IS NULL ORDER BY granted_entry_id LIMIT 1`,
      [principal, params.mode, params.project_id],
    );
    return {
      purchased: this.#purchased(principal, params.mode),
      creditFrom: credit === undefined ? null : String(credit.origin_seal_id),
    };
  }

  #runRow(runId: string): RunRecord | null {
    const row = this.#get("SELECT * FROM runs WHERE run_id = ?", [runId]);
    return row === undefined ? null : toRunRecord(row);
  }

  /**
   * Appends the ledger line; a purchased-pool line also moves the balances row, a credit-pool line
   * is followed by the caller's write to rerun_credits. Returns [entry id, runs left after] where
   * runs left = purchased + unused rerun credits, so the ledger's deltas always sum to it.
   */
  #appendEntry(
    entry: Omit<LedgerEntry, "id" | "runs_remaining_after" | "created_at">,
    at: string,
    pool: "purchased" | "credit",
  ): [number, number] {
    let purchased = this.#purchased(entry.principal, entry.mode);
    if (pool === "purchased") {
      purchased += entry.delta;
      if (purchased < 0) throw new EntitlementError("ENTITLEMENT_EXHAUSTED");
      assertBalanceWithinLimit(purchased);
      this.#run(
        `INSERT INTO balances (principal, mode, runs_remaining) VALUES (?, ?, ?)
         ON CONFLICT (principal, mode) DO UPDATE SET runs_remaining = excluded.runs_remaining`,
        [entry.principal, entry.mode, purchased],
      );
    }
    const after =
      purchased + this.#unusedCredits(entry.principal, entry.mode) + (pool === "credit" ? entry.delta : 0);
    const id = this.#run(
      `INSERT INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, seal_id,
         idempotency_key, actor, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        entry.kind,
        entry.principal,
        entry.mode,
        entry.delta,
        after,
        entry.run_id,
        entry.seal_id,
        entry.idempotency_key,
        entry.actor,
        entry.reason,
        at,
      ],
    );
    return [id, after];
  }

  subscribe(listener: LedgerEventListener): void {
    this.#events.subscribe(listener);
  }

  /** Runs `work` in the group commit and tells its event once the batch has committed. */
  async #committed<T>(work: () => [T, LedgerEvent]): Promise<T> {
    const [result, event] = await this.#batch.run(work);
    this.#events.emit(event);
    return result;
  }

  async ping(): Promise<void> {
    this.#get("SELECT 1");
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#batch.flush();
    this.#db.close();
  }

  async getBalance(principal: string, mode: RunMode): Promise<number> {
    return this.#purchased(principal, mode) + this.#unusedCredits(principal, mode);
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    return this.#runRow(runId);
  }

  async checkRun(principal: string, params: RunParams): Promise<CheckResult> {
    const run = this.#runRow(params.run_id);
    const { already_consumed } = decideCheck(run, principal, params, this.#funds(principal, params));
    const left = this.#purchased(principal, params.mode) + this.#unusedCredits(principal, params.mode);
    return checkAnswer(principal, params, left, already_consumed);
  }

  async consumeRun(principal: string, params: RunParams): Promise<ConsumeResult> {
    return this.#committed(() => {
      const run = this.#runRow(params.run_id);
      const decision = decideConsume(run, principal, params, this.#funds(principal, params));
      if (decision.kind === "replay")
        return [
          decision.answer,
          { kind: "consume", mode: params.mode, funding: (run as RunRecord).funding, replayed: true },
        ];
      const at = this.#now().toISOString();
      const rerunOf = decision.funding === "rerun" ? decision.rerunOf : null;
      const [entryId, after] = this.#appendEntry(
        consumeEntry(principal, params, rerunOf),
        at,
        rerunOf === null ? "purchased" : "credit",
      );
      if (rerunOf !== null)
        this.#run(
          "UPDATE rerun_credits SET used_run_id = ? WHERE origin_seal_id = ? AND principal = ? AND used_run_id IS NULL",
          [params.run_id, rerunOf, principal],
        );
      this.#run(
        `INSERT INTO runs (run_id, principal, project_id, mode, module_id, state, consumed_at, ledger_entry_id,
           runs_remaining_after, funding, rerun_of) VALUES (?, ?, ?, ?, ?, 'consumed', ?, ?, ?, ?, ?)`,
        [
          params.run_id,
          principal,
          params.project_id,
          params.mode,
          params.module_id,
          at,
          entryId,
          after,
          decision.funding,
          rerunOf,
        ],
      );
      return [
        consumeAnswerOf(this.#runRow(params.run_id) as RunRecord),
        { kind: "consume", mode: params.mode, funding: decision.funding, replayed: false },
      ];
    });
  }

  async startRun(principal: string, fields: RunStartFields): Promise<RunStartResult> {
    return this.#batch.run(() => {
      const run = this.#runRow(fields.run_id);
      if (decideRunStart(run, principal, fields) === "record") {
        this.#run(
          `UPDATE runs SET state = 'started', category_id = ?, inputs_sha256 = ?, image_reference = ?,
             image_digest = ?, started_at = ? WHERE run_id = ?`,
          [
            fields.category_id,
            fields.inputs_sha256,
            fields.image.reference,
            fields.image.digest,
            this.#now().toISOString(),
            fields.run_id,
          ],
        );
      }
      const stored = this.#runRow(fields.run_id) as RunRecord;
      return { run_id: stored.run_id, state: "started", started_at: stored.started_at as string };
    });
  }

  async completeRun(
    principal: string,
    fields: RunCompleteFields,
    issueSeal: IssueSeal,
  ): Promise<RunCompleteResult> {
    return this.#committed(() => {
      const run = this.#runRow(fields.run_id);
      if (decideRunComplete(run, principal, fields) === "seal" && run !== null) {
        const now = this.#now();
        const seal = issueSeal(run, fields, now);
        this.#run(
          `UPDATE runs SET state = 'completed', outputs_sha256 = ?, run_manifest_sha256 = ?, completed_at = ?,
             seal_id = ? WHERE run_id = ?`,
          [fields.outputs_sha256, fields.run_manifest_sha256, now.toISOString(), seal.seal_id, run.run_id],
        );
        this.#run(
          `INSERT INTO seals (seal_id, run_id, principal, mode, key_id, issued_at, bundle_json)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [seal.seal_id, run.run_id, principal, run.mode, seal.key_id, toInstant(now), JSON.stringify(seal)],
        );
        // issue 30 item 1: no seal without its leaf; the same transaction commits both or neither
        this.#appendLogLeaf(issuedEntryOf(seal.seal_json, seal.payload as LogEntrySource));
        return [
          { run_id: run.run_id, state: "completed", seal },
          { kind: "seal_issued", mode: run.mode, replayed: false },
        ];
      }
      const row = this.#get("SELECT bundle_json FROM seals WHERE run_id = ?", [fields.run_id]);
      const seal = JSON.parse(String(row?.bundle_json)) as SealBundleRecord;
      return [
        { run_id: fields.run_id, state: "completed", seal },
        { kind: "seal_issued", mode: (run as RunRecord).mode, replayed: true },
      ];
    });
  }

  async grantRuns(request: GrantRequest): Promise<GrantResult> {
    return this.#committed(() => {
      const previousRow =
        request.idempotency_key === undefined
          ? undefined
          : this.#get("SELECT * FROM ledger_entries WHERE idempotency_key = ?", [request.idempotency_key]);
      const decision = decideGrant(previousRow === undefined ? null : toLedgerEntry(previousRow), request);
      if (decision.kind === "replay")
        return [decision.answer, { kind: "grant", mode: request.mode, runs: request.runs, replayed: true }];
      const [id, after] = this.#appendEntry(grantEntry(request), this.#now().toISOString(), "purchased");
      return [
        grantAnswer(request, id, after),
        { kind: "grant", mode: request.mode, runs: request.runs, replayed: false },
      ];
    });
  }

  async redeemSeal(request: RedeemRequest): Promise<RedeemResult> {
    return this.#committed(() => {
      const seal = this.#sealRow(request.seal_id);
      const principal = decideRedemption(
        seal,
        request,
        (who) =>
          this.#get(
            "SELECT 1 FROM ledger_entries WHERE kind = 'redemption_grant' AND principal = ? AND seal_id = ?",
            [who, request.seal_id],
          ) !== undefined,
      );
      const origin = seal as SealRecord;
      const at = this.#now().toISOString();
      const [id, after] = this.#appendEntry(redemptionEntry(principal, origin, request.actor), at, "credit");
      this.#run(
        `INSERT INTO rerun_credits (origin_seal_id, principal, project_id, mode, granted_entry_id)
         VALUES (?, ?, ?, ?, ?)`,
        [origin.seal_id, principal, origin.project_id, origin.mode, id],
      );
      return [redemptionAnswer(principal, origin, after), { kind: "redemption", mode: origin.mode }];
    });
  }

  #sealRow(sealId: string): SealRecord | null {
    const row = this.#get(`${SEAL_RECORD_SELECT} WHERE s.seal_id = ?`, [sealId]);
    return row === undefined ? null : toSealRecord(row);
  }

  async findSeal(sealId: string): Promise<SealRecord | null> {
    return this.#sealRow(sealId);
  }

  async revokeSeal(sealId: string, reason: string): Promise<boolean> {
    // a repeated revocation keeps the first reason and time (the record of when it was withdrawn)
    return this.#batch.run(() => {
      const row = this.#get("SELECT revoked, bundle_json FROM seals WHERE seal_id = ?", [sealId]);
      if (row === undefined) return false;
      if (Number(row.revoked) === 1) return true;
      const at = this.#now().toISOString();
      this.#run("UPDATE seals SET revoked = 1, revoked_reason = ?, revoked_at = ? WHERE seal_id = ?", [
        reason,
        at,
        sealId,
      ]);
      // issue 30 item 1: a revocation is a leaf too, so it cannot be shown to one auditor only
      this.#appendLogLeaf(revokedEntryOf(String(row.bundle_json), at));
      return true;
    });
  }

  async listLedger(principal?: string): Promise<LedgerEntry[]> {
    const rows =
      principal === undefined
        ? this.#all("SELECT * FROM ledger_entries ORDER BY id")
        : this.#all("SELECT * FROM ledger_entries WHERE principal = ? ORDER BY id", [principal]);
    return rows.map(toLedgerEntry);
  }

  async listPrincipalBalances(page: {
    after?: string | undefined;
    limit: number;
  }): Promise<PrincipalBalances[]> {
    const names = this.#all(
      "SELECT DISTINCT principal FROM balances WHERE principal > ? ORDER BY principal LIMIT ?",
      [page.after ?? "", page.limit],
    ).map((row) => String(row.principal));
    // Through getBalance, so the listing always agrees with what check and balance answer.
    return Promise.all(
      names.map(async (principal) => ({
        principal,
        balances: {
          standard: await this.getBalance(principal, "standard"),
          deep: await this.getBalance(principal, "deep"),
        },
      })),
    );
  }

  async listLedgerPage(page: {
    principal?: string | undefined;
    afterId?: number | undefined;
    limit: number;
  }): Promise<LedgerEntry[]> {
    const rows =
      page.principal === undefined
        ? this.#all("SELECT * FROM ledger_entries WHERE id > ? ORDER BY id LIMIT ?", [
            page.afterId ?? 0,
            page.limit,
          ])
        : this.#all("SELECT * FROM ledger_entries WHERE principal = ? AND id > ? ORDER BY id LIMIT ?", [
            page.principal,
            page.afterId ?? 0,
            page.limit,
          ]);
    return rows.map(toLedgerEntry);
  }

  /** Appends a leaf and the subtree hashes it completes (inside the caller's transaction). */
  #appendLogLeaf(entry: LogEntry): void {
    const size = Number(this.#get("SELECT coalesce(max(leaf_index) + 1, 0) AS n FROM log_leaves")?.n ?? 0);
    const bytes = logEntryBytes(entry);
    const needed = siblingsNeededToAppend(size);
    const found = this.#hashes(needed);
    const siblings = new Map(needed.map((c, i) => [`${c.level}/${c.index}`, found[i] as Buffer]));
    this.#run("INSERT INTO log_leaves (leaf_index, seal_id, event, entry) VALUES (?, ?, ?, ?)", [
      size,
      entry.seal_id,
      entry.event,
      bytes.toString("utf8"),
    ]);
    for (const { coordinate, hash } of subtreesCompletedBy(
      size,
      hashLeaf(bytes),
      (c) => siblings.get(`${c.level}/${c.index}`) as Buffer,
    ))
      this.#run("INSERT INTO log_hashes (level, idx, hash) VALUES (?, ?, ?)", [
        coordinate.level,
        coordinate.index,
        hash,
      ]);
  }

  #hashes(coordinates: readonly SubtreeCoordinate[]): Buffer[] {
    return coordinates.map((coordinate) => {
      const row = this.#get("SELECT hash FROM log_hashes WHERE level = ? AND idx = ?", [
        coordinate.level,
        coordinate.index,
      ]);
      if (row === undefined)
        throw new EntitlementError(
          "LOG_RANGE_INVALID",
          `subtree ${coordinate.level}/${coordinate.index} is not complete`,
        );
      return Buffer.from(row.hash as Uint8Array);
    });
  }

  async logStartedAt(): Promise<string> {
    const row = this.#get("SELECT applied_at FROM schema_migrations WHERE version = ?", [
      LOG_MIGRATION_VERSION,
    ]);
    return new Date(String(row?.applied_at)).toISOString();
  }

  async logSize(): Promise<number> {
    return Number(this.#get("SELECT coalesce(max(leaf_index) + 1, 0) AS n FROM log_leaves")?.n ?? 0);
  }

  async logSubtreeHashes(coordinates: readonly SubtreeCoordinate[]): Promise<Buffer[]> {
    return this.#hashes(coordinates);
  }

  async logLeafIndex(sealId: string, event: LogEvent): Promise<number | null> {
    const row = this.#get("SELECT leaf_index FROM log_leaves WHERE seal_id = ? AND event = ?", [
      sealId,
      event,
    ]);
    return row === undefined ? null : Number(row.leaf_index);
  }

  async logEntries(start: number, limit: number): Promise<LogLeafRecord[]> {
    return this.#all(
      "SELECT leaf_index, entry FROM log_leaves WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?",
      [start, limit],
    ).map((row) => ({ leaf_index: Number(row.leaf_index), entry: String(row.entry) }));
  }
}
