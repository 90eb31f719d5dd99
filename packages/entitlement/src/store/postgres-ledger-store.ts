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
import pg from "pg";
import {
  balanceLimitError,
  checkAnswer,
  consumeAnswerOf,
  consumeEntry,
  consumeReason,
  decideCheck,
  decideConsume,
  decideGrant,
  decideRedemption,
  decideRunComplete,
  decideRunStart,
  grantAnswer,
  grantEntry,
  MAX_BALANCE,
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
import { ConsumeBatcher } from "./postgres-consume-batch.ts";
import { POSTGRES_MIGRATIONS } from "./postgres-migrations.ts";
import { SEAL_RECORD_SELECT, toLedgerEntry, toRunRecord, toSealRecord } from "./row-mapping.ts";

export interface PostgresLedgerStoreOptions extends LedgerStoreOptions {
  readonly poolMax?: number;
  /** Attempts of one transaction on serialization failure, deadlock or a lost insert race. */
  readonly maxAttempts?: number;
}

type Client = pg.PoolClient;
type Row = Record<string, unknown>;

// 40001 serialization_failure, 40P01 deadlock_detected: retry (PostgreSQL docs §13.2.3).
// 23505 unique_violation: two transactions raced to insert the same run/redemption/key; the retry
// sees the winner's row and answers from it (replay, 409).
const RETRYABLE = new Set(["40001", "40P01", "23505"]);
const MIGRATION_LOCK = 0x5ec1ed9e;

/**
 * The multi-replica ledger: PostgreSQL via `pg`. READ COMMITTED with `SELECT ... FOR UPDATE` on
 * the balance row (consume) or the run row (lifecycle) serialises writers of the same principal;
 * unique indexes catch the remaining races and the transaction is retried.
 */
export class PostgresLedgerStore implements LedgerStore {
  readonly kind = "postgres" as const;
  readonly #pool: pg.Pool;
  readonly #now: () => Date;
  readonly #maxAttempts: number;
  readonly #events = new LedgerEventHub();
  readonly #consumes: ConsumeBatcher;

  private constructor(pool: pg.Pool, options: PostgresLedgerStoreOptions) {
    this.#pool = pool;
    this.#consumes = new ConsumeBatcher((query) =>
      this.#retrying(async () => (await this.#pool.query(query)).rows as Row[]),
    );
    this.#now = options.now ?? (() => new Date());
    this.#maxAttempts = options.maxAttempts ?? 20;
  }

  /** Connects and applies pending migrations (serialised across replicas by an advisory lock). */
  static async open(url: string, options: PostgresLedgerStoreOptions = {}): Promise<PostgresLedgerStore> {
    const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? 10 });
    // an idle client losing its connection must not crash the process; the next query reconnects
    pool.on("error", () => {});
    const store = new PostgresLedgerStore(pool, options);
    try {
      await store.#migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  async #migrate(): Promise<void> {
    await this.#tx(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
      );
      const applied = new Set(
        (await client.query("SELECT version FROM schema_migrations")).rows.map((row) => Number(row.version)),
      );
      for (const migration of POSTGRES_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          this.#now().toISOString(),
        ]);
      }
      // issue 30: seals issued before the log get their leaves now, oldest first (under the
      // migration lock, so two replicas starting together log them once)
      const unlogged = await client.query(
        `SELECT s.seal_id, s.bundle_json, s.revoked, s.revoked_at, s.issued_at FROM seals s
           WHERE NOT EXISTS (SELECT 1 FROM log_leaves l WHERE l.seal_id = s.seal_id AND l.event = 'issued')
           ORDER BY s.issued_at, s.seal_id`,
      );
      for (const row of unlogged.rows as Row[]) {
        const bundle = String(row.bundle_json);
        const seal = JSON.parse(bundle) as SealBundleRecord;
        await this.#appendLogLeaf(
          client,
          issuedEntryOf(seal.seal_json, seal.payload as Parameters<typeof issuedEntryOf>[1]),
        );
        if (row.revoked === true)
          await this.#appendLogLeaf(client, revokedEntryOf(bundle, String(row.revoked_at ?? row.issued_at)));
      }
    });
  }

  async #tx<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return this.#retrying(async () => {
      const client = await this.#pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    });
  }

  /** A transaction whose event is told once it has committed. */
  async #committed<T>(work: (client: Client) => Promise<[T, LedgerEvent]>): Promise<T> {
    const [result, event] = await this.#tx(work);
    this.#events.emit(event);
    return result;
  }

  /** Runs one whole transaction again on serialization failure, deadlock or a lost insert race. */
  async #retrying<T>(attemptOnce: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await attemptOnce();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === undefined || !RETRYABLE.has(code) || attempt >= this.#maxAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
      }
    }
  }

  async #one(client: Client | pg.Pool, sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await client.query(sql, params)).rows[0] as Row | undefined;
  }

  async #runRow(client: Client | pg.Pool, runId: string, lock = false): Promise<RunRecord | null> {
    const row = await this.#one(client, `SELECT * FROM runs WHERE run_id = $1${lock ? " FOR UPDATE" : ""}`, [
      runId,
    ]);
    return row === undefined ? null : toRunRecord(row);
  }

  /** Purchased runs left (the balances row; rerun credits live in their own table). */
  async #purchased(
    client: Client | pg.Pool,
    principal: string,
    mode: RunMode,
    lock = false,
  ): Promise<number> {
    const row = await this.#one(
      client,
      `SELECT runs_remaining FROM balances WHERE principal = $1 AND mode = $2${lock ? " FOR UPDATE" : ""}`,
      [principal, mode],
    );
    return row === undefined ? 0 : Number(row.runs_remaining);
  }

  async #unusedCredits(client: Client | pg.Pool, principal: string, mode: RunMode): Promise<number> {
    const row = await this.#one(
      client,
      "SELECT count(*) AS n FROM rerun_credits WHERE principal = $1 AND mode = $2 AND used_run_id IS NULL",
      [principal, mode],
    );
    return Number(row?.n ?? 0);
  }

  async #funds(
    client: Client | pg.Pool,
    principal: string,
    params: RunParams,
    lock = false,
  ): Promise<ConsumeFunds> {
    const credit = await this.#one(
      client,
      `SELECT origin_seal_id FROM rerun_credits WHERE principal = $1 AND mode = $2 AND project_id = $3
         AND used_run_id IS NULL ORDER BY granted_entry_id LIMIT 1${lock ? " FOR UPDATE" : ""}`,
      [principal, params.mode, params.project_id],
    );
    return {
      purchased: await this.#purchased(client, principal, params.mode, lock),
      creditFrom: credit === undefined ? null : String(credit.origin_seal_id),
    };
  }

  /**
   * Appends the ledger line; a purchased-pool line also moves the balances row (row-locked upsert),
   * a credit-pool line is followed by the caller's write to rerun_credits. Returns [entry id, runs
   * left after], runs left = purchased + unused rerun credits (the ledger's sum).
   */
  async #appendEntry(
    client: Client,
    entry: Omit<LedgerEntry, "id" | "runs_remaining_after" | "created_at">,
    at: string,
    pool: "purchased" | "credit",
  ): Promise<[number, number]> {
    let purchased: number;
    if (pool === "purchased") {
      const balance = await this.#one(
        client,
        // the proposed row is CHECKed before the conflict is seen, so it must not be negative itself
        // and a balance past MAX_BALANCE is not written: no row comes back
        `INSERT INTO balances (principal, mode, runs_remaining) VALUES ($1, $2, GREATEST($3::bigint, 0))
         ON CONFLICT (principal, mode) DO UPDATE SET runs_remaining = balances.runs_remaining + $3
           WHERE balances.runs_remaining + $3 <= $4
         RETURNING runs_remaining`,
        [entry.principal, entry.mode, entry.delta, MAX_BALANCE],
      );
      if (balance === undefined) throw balanceLimitError();
      purchased = Number(balance?.runs_remaining);
    } else purchased = await this.#purchased(client, entry.principal, entry.mode);
    const after =
      purchased +
      (await this.#unusedCredits(client, entry.principal, entry.mode)) +
      (pool === "credit" ? entry.delta : 0);
    const inserted = await this.#one(
      client,
      `INSERT INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, seal_id,
         idempotency_key, actor, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING id`,
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
    return [Number(inserted?.id), after];
  }

  subscribe(listener: LedgerEventListener): void {
    this.#events.subscribe(listener);
  }

  async ping(): Promise<void> {
    await this.#pool.query("SELECT 1");
  }

  async close(): Promise<void> {
    // consumes already queued are sent and answered, not refused by a closed pool
    await this.#consumes.idle();
    await this.#pool.end();
  }

  async getBalance(principal: string, mode: RunMode): Promise<number> {
    return (
      (await this.#purchased(this.#pool, principal, mode)) +
      (await this.#unusedCredits(this.#pool, principal, mode))
    );
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    return this.#runRow(this.#pool, runId);
  }

  async checkRun(principal: string, params: RunParams): Promise<CheckResult> {
    const run = await this.#runRow(this.#pool, params.run_id);
    const { already_consumed } = decideCheck(
      run,
      principal,
      params,
      await this.#funds(this.#pool, principal, params),
    );
    return checkAnswer(principal, params, await this.getBalance(principal, params.mode), already_consumed);
  }

  async consumeRun(principal: string, params: RunParams): Promise<ConsumeResult> {
    // One statement in its own (autocommit) transaction, shared with the consumes that arrive
    // alongside (group commit, ConsumeBatcher). It charges only when the run is new and a run is
    // left, which is decideConsume's rule; the UPDATE's row lock serialises consumes of one
    // principal and its guard is re-checked on the row version it waited for. A concurrent first
    // consume of the same run_id, invisible to this statement's snapshot, makes an insert hit a
    // unique index (23505): the retried statement sees its row.
    const row = await this.#consumes.consume({
      principal,
      mode: params.mode,
      runId: params.run_id,
      projectId: params.project_id,
      moduleId: params.module_id,
      reason: consumeReason(params),
      at: this.#now().toISOString(),
    });
    if (row?.outcome === "charged") {
      this.#events.emit({ kind: "consume", mode: params.mode, funding: "purchased", replayed: false });
      return consumeAnswerOf(toRunRecord(row));
    }
    if (row?.outcome === "credit") return this.#consumeWithCredit(principal, params);
    // Not charged: the run existed (replay or 409), or the guard saw no run left. In the second
    // case a consume of the same run_id may have committed while this statement waited for the
    // balance lock, after its snapshot: read the run again (runs are never deleted, so absent now
    // means absent when the guard ran, and the answer is 402).
    const run = row === undefined ? await this.#runRow(this.#pool, params.run_id) : toRunRecord(row);
    const decision = decideConsume(run, principal, params, { purchased: 0, creditFrom: null });
    if (decision.kind === "replay") {
      this.#events.emit({
        kind: "consume",
        mode: params.mode,
        funding: (run as RunRecord).funding,
        replayed: true,
      });
      return decision.answer;
    }
    throw new Error("consume statement neither charged nor found the run");
  }

  /**
   * The consume of a principal holding a rerun credit for this project: one transaction that locks
   * the credit and the balance row and lets decideConsume choose. Two consumes racing for one
   * credit: the second waits for the row lock and then sees it used (READ COMMITTED re-check).
   */
  async #consumeWithCredit(principal: string, params: RunParams): Promise<ConsumeResult> {
    const { answer, funding, replayed } = await this.#tx(async (client) => {
      const run = await this.#runRow(client, params.run_id, true);
      const decision = decideConsume(
        run,
        principal,
        params,
        await this.#funds(client, principal, params, true),
      );
      if (decision.kind === "replay")
        return { answer: decision.answer, funding: (run as RunRecord).funding, replayed: true };
      const rerunOf = decision.funding === "rerun" ? decision.rerunOf : null;
      const at = this.#now().toISOString();
      const [entryId, after] = await this.#appendEntry(
        client,
        consumeEntry(principal, params, rerunOf),
        at,
        rerunOf === null ? "purchased" : "credit",
      );
      if (rerunOf !== null)
        await client.query(
          "UPDATE rerun_credits SET used_run_id = $1 WHERE origin_seal_id = $2 AND principal = $3 AND used_run_id IS NULL",
          [params.run_id, rerunOf, principal],
        );
      const inserted = await this.#one(
        client,
        `INSERT INTO runs (run_id, principal, project_id, mode, module_id, state, consumed_at, ledger_entry_id,
           runs_remaining_after, funding, rerun_of) VALUES ($1, $2, $3, $4, $5, 'consumed', $6, $7, $8, $9, $10)
         RETURNING *`,
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
      return {
        answer: consumeAnswerOf(toRunRecord(inserted as Row)),
        funding: decision.funding,
        replayed: false,
      };
    });
    this.#events.emit({ kind: "consume", mode: params.mode, funding, replayed });
    return answer;
  }

  async startRun(principal: string, fields: RunStartFields): Promise<RunStartResult> {
    return this.#tx(async (client) => {
      const run = await this.#runRow(client, fields.run_id, true);
      let stored = run;
      if (decideRunStart(run, principal, fields) === "record") {
        const row = await this.#one(
          client,
          `UPDATE runs SET state = 'started', category_id = $1, inputs_sha256 = $2, image_reference = $3,
             image_digest = $4, started_at = $5 WHERE run_id = $6 RETURNING *`,
          [
            fields.category_id,
            fields.inputs_sha256,
            fields.image.reference,
            fields.image.digest,
            this.#now().toISOString(),
            fields.run_id,
          ],
        );
        stored = toRunRecord(row as Row);
      }
      return { run_id: fields.run_id, state: "started", started_at: stored?.started_at as string };
    });
  }

  async completeRun(
    principal: string,
    fields: RunCompleteFields,
    issueSeal: IssueSeal,
  ): Promise<RunCompleteResult> {
    return this.#committed(async (client) => {
      const run = await this.#runRow(client, fields.run_id, true);
      if (decideRunComplete(run, principal, fields) === "seal" && run !== null) {
        const now = this.#now();
        const seal = issueSeal(run, fields, now);
        await client.query(
          `UPDATE runs SET state = 'completed', outputs_sha256 = $1, run_manifest_sha256 = $2, completed_at = $3,
             seal_id = $4 WHERE run_id = $5`,
          [fields.outputs_sha256, fields.run_manifest_sha256, now.toISOString(), seal.seal_id, run.run_id],
        );
        await client.query(
          `INSERT INTO seals (seal_id, run_id, principal, mode, key_id, issued_at, bundle_json)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [seal.seal_id, run.run_id, principal, run.mode, seal.key_id, toInstant(now), JSON.stringify(seal)],
        );
        // issue 30 item 1: no seal without its leaf; the same transaction commits both or neither
        await this.#appendLogLeaf(
          client,
          issuedEntryOf(seal.seal_json, seal.payload as Parameters<typeof issuedEntryOf>[1]),
        );
        return [
          { run_id: run.run_id, state: "completed", seal },
          { kind: "seal_issued", mode: run.mode, replayed: false },
        ];
      }
      const row = await this.#one(client, "SELECT bundle_json FROM seals WHERE run_id = $1", [fields.run_id]);
      return [
        {
          run_id: fields.run_id,
          state: "completed",
          seal: JSON.parse(String(row?.bundle_json)) as SealBundleRecord,
        },
        { kind: "seal_issued", mode: (run as RunRecord).mode, replayed: true },
      ];
    });
  }

  async grantRuns(request: GrantRequest): Promise<GrantResult> {
    return this.#committed(async (client) => {
      const previous =
        request.idempotency_key === undefined
          ? undefined
          : await this.#one(client, "SELECT * FROM ledger_entries WHERE idempotency_key = $1", [
              request.idempotency_key,
            ]);
      const decision = decideGrant(previous === undefined ? null : toLedgerEntry(previous), request);
      if (decision.kind === "replay")
        return [decision.answer, { kind: "grant", mode: request.mode, runs: request.runs, replayed: true }];
      const [id, after] = await this.#appendEntry(
        client,
        grantEntry(request),
        this.#now().toISOString(),
        "purchased",
      );
      return [
        grantAnswer(request, id, after),
        { kind: "grant", mode: request.mode, runs: request.runs, replayed: false },
      ];
    });
  }

  async redeemSeal(request: RedeemRequest): Promise<RedeemResult> {
    return this.#committed(async (client) => {
      // the seal row lock serialises redemptions of one seal (and a revocation racing them)
      const row = await this.#one(client, `${SEAL_RECORD_SELECT} WHERE s.seal_id = $1 FOR UPDATE OF s`, [
        request.seal_id,
      ]);
      const seal = row === undefined ? null : toSealRecord(row);
      const redeemed = new Set(
        (
          await client.query(
            "SELECT principal FROM ledger_entries WHERE kind = 'redemption_grant' AND seal_id = $1",
            [request.seal_id],
          )
        ).rows.map((entry) => String(entry.principal)),
      );
      const principal = decideRedemption(seal, request, (who) => redeemed.has(who));
      const origin = seal as SealRecord;
      const [id, after] = await this.#appendEntry(
        client,
        redemptionEntry(principal, origin, request.actor),
        this.#now().toISOString(),
        "credit",
      );
      await client.query(
        `INSERT INTO rerun_credits (origin_seal_id, principal, project_id, mode, granted_entry_id)
         VALUES ($1, $2, $3, $4, $5)`,
        [origin.seal_id, principal, origin.project_id, origin.mode, id],
      );
      return [redemptionAnswer(principal, origin, after), { kind: "redemption", mode: origin.mode }];
    });
  }

  async findSeal(sealId: string): Promise<SealRecord | null> {
    const row = await this.#one(this.#pool, `${SEAL_RECORD_SELECT} WHERE s.seal_id = $1`, [sealId]);
    return row === undefined ? null : toSealRecord(row);
  }

  async revokeSeal(sealId: string, reason: string): Promise<boolean> {
    // a repeated revocation keeps the first reason and time (the record of when it was withdrawn)
    return this.#tx(async (client) => {
      const row = await this.#one(
        client,
        "SELECT revoked, bundle_json FROM seals WHERE seal_id = $1 FOR UPDATE",
        [sealId],
      );
      if (row === undefined) return false;
      if (row.revoked === true) return true;
      const at = this.#now().toISOString();
      await client.query(
        "UPDATE seals SET revoked = TRUE, revoked_reason = $1, revoked_at = $2 WHERE seal_id = $3",
        [reason, at, sealId],
      );
      // issue 30 item 1: a revocation is a leaf too, so it cannot be shown to one auditor only
      await this.#appendLogLeaf(client, revokedEntryOf(String(row.bundle_json), at));
      return true;
    });
  }

  async listLedger(principal?: string): Promise<LedgerEntry[]> {
    const result =
      principal === undefined
        ? await this.#pool.query("SELECT * FROM ledger_entries ORDER BY id")
        : await this.#pool.query("SELECT * FROM ledger_entries WHERE principal = $1 ORDER BY id", [
            principal,
          ]);
    return result.rows.map(toLedgerEntry);
  }

  // COLLATE "C": byte order, the same as SQLite's, so keyset pages do not depend on the locale.
  async listPrincipalBalances(page: {
    after?: string | undefined;
    limit: number;
  }): Promise<PrincipalBalances[]> {
    const names = (
      await this.#pool.query(
        `SELECT DISTINCT principal COLLATE "C" AS principal FROM balances
         WHERE principal COLLATE "C" > $1 ORDER BY 1 LIMIT $2`,
        [page.after ?? "", page.limit],
      )
    ).rows.map((row) => String(row.principal));
    // Through getBalance, so the listing always agrees with what check and balance answer.
    const balances: PrincipalBalances[] = [];
    for (const principal of names)
      balances.push({
        principal,
        balances: {
          standard: await this.getBalance(principal, "standard"),
          deep: await this.getBalance(principal, "deep"),
        },
      });
    return balances;
  }

  async listLedgerPage(page: {
    principal?: string | undefined;
    afterId?: number | undefined;
    limit: number;
  }): Promise<LedgerEntry[]> {
    const result =
      page.principal === undefined
        ? await this.#pool.query("SELECT * FROM ledger_entries WHERE id > $1 ORDER BY id LIMIT $2", [
            page.afterId ?? 0,
            page.limit,
          ])
        : await this.#pool.query(
            "SELECT * FROM ledger_entries WHERE principal = $1 AND id > $2 ORDER BY id LIMIT $3",
            [page.principal, page.afterId ?? 0, page.limit],
          );
    return result.rows.map(toLedgerEntry);
  }

  /**
   * Appends a leaf and the subtree hashes it completes, inside the caller's transaction. The
   * log_head row lock orders appends, so a leaf's index is its commit order and a reader never
   * sees leaf n+1 without leaf n.
   */
  async #appendLogLeaf(client: Client, entry: LogEntry): Promise<void> {
    const head = await this.#one(client, "SELECT size FROM log_head WHERE id = 1 FOR UPDATE");
    const size = Number(head?.size);
    const bytes = logEntryBytes(entry);
    const needed = siblingsNeededToAppend(size);
    const found = await this.#hashes(client, needed);
    const siblings = new Map(needed.map((c, i) => [`${c.level}/${c.index}`, found[i] as Buffer]));
    await client.query("INSERT INTO log_leaves (leaf_index, seal_id, event, entry) VALUES ($1, $2, $3, $4)", [
      size,
      entry.seal_id,
      entry.event,
      bytes.toString("utf8"),
    ]);
    const completed = subtreesCompletedBy(
      size,
      hashLeaf(bytes),
      (c) => siblings.get(`${c.level}/${c.index}`) as Buffer,
    );
    await client.query(
      "INSERT INTO log_hashes (level, idx, hash) SELECT * FROM unnest($1::int[], $2::bigint[], $3::bytea[])",
      [
        completed.map((c) => c.coordinate.level),
        completed.map((c) => c.coordinate.index),
        completed.map((c) => c.hash),
      ],
    );
    await client.query("UPDATE log_head SET size = $1 WHERE id = 1", [size + 1]);
  }

  async #hashes(client: Client | pg.Pool, coordinates: readonly SubtreeCoordinate[]): Promise<Buffer[]> {
    if (coordinates.length === 0) return [];
    const rows = (
      await client.query(
        `SELECT h.level, h.idx, h.hash FROM unnest($1::int[], $2::bigint[]) AS want(level, idx)
           JOIN log_hashes h ON h.level = want.level AND h.idx = want.idx`,
        [coordinates.map((c) => c.level), coordinates.map((c) => c.index)],
      )
    ).rows as Row[];
    const byKey = new Map(rows.map((row) => [`${row.level}/${row.idx}`, row.hash as Buffer]));
    return coordinates.map((c) => {
      const hash = byKey.get(`${c.level}/${c.index}`);
      if (hash === undefined)
        throw new EntitlementError("LOG_RANGE_INVALID", `subtree ${c.level}/${c.index} is not complete`);
      return hash;
    });
  }

  async logStartedAt(): Promise<string> {
    const row = await this.#one(this.#pool, "SELECT applied_at FROM schema_migrations WHERE version = $1", [
      LOG_MIGRATION_VERSION,
    ]);
    return new Date(String(row?.applied_at)).toISOString();
  }

  async logSize(): Promise<number> {
    return Number((await this.#one(this.#pool, "SELECT size FROM log_head WHERE id = 1"))?.size ?? 0);
  }

  async logSubtreeHashes(coordinates: readonly SubtreeCoordinate[]): Promise<Buffer[]> {
    return this.#hashes(this.#pool, coordinates);
  }

  async logLeafIndex(sealId: string, event: LogEvent): Promise<number | null> {
    const row = await this.#one(
      this.#pool,
      "SELECT leaf_index FROM log_leaves WHERE seal_id = $1 AND event = $2",
      [sealId, event],
    );
    return row === undefined ? null : Number(row.leaf_index);
  }

  async logEntries(start: number, limit: number): Promise<LogLeafRecord[]> {
    const result = await this.#pool.query(
      "SELECT leaf_index, entry FROM log_leaves WHERE leaf_index >= $1 ORDER BY leaf_index LIMIT $2",
      [start, limit],
    );
    return result.rows.map((row) => ({ leaf_index: Number(row.leaf_index), entry: String(row.entry) }));
  }
}
