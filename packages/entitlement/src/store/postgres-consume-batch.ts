import type pg from "pg";

type Row = Record<string, unknown>;

/** One consume's values, in the order of the batch statement's arrays. */
export interface ConsumeValues {
  readonly principal: string;
  readonly mode: string;
  readonly runId: string;
  readonly projectId: string;
  readonly moduleId: string;
  readonly reason: string;
  readonly at: string;
}

// The consume of one purchased run as one statement: a batch of one, the common case at low load
// ($1 principal, $2 mode, $3 run_id, $4 project_id, $5 module_id, $6 reason, $7 instant). Answers
// the inserted run (outcome 'charged'), or the existing run of that run_id, or 'credit' (a row of
// nulls) when a rerun credit for this project exists, which consumeWithCredit spends instead, or
// no row when no run was left. The "runs left"
// it records adds the unused rerun credits of the principal and mode, as the ledger's sum does.
export const CONSUME_SQL = `
WITH existing AS (
  SELECT * FROM runs WHERE run_id = $3
), credit AS (
  SELECT 1 FROM rerun_credits
  WHERE principal = $1 AND mode = $2 AND project_id = $4 AND used_run_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM existing)
  LIMIT 1
), charged AS (
  UPDATE balances SET runs_remaining = runs_remaining - 1
  WHERE principal = $1 AND mode = $2 AND runs_remaining >= 1
    AND NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM credit)
  RETURNING runs_remaining
), left_after AS (
  SELECT charged.runs_remaining + (SELECT count(*) FROM rerun_credits
    WHERE principal = $1 AND mode = $2 AND used_run_id IS NULL) AS runs_remaining FROM charged
), entry AS (
  INSERT INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, actor, reason, created_at)
  SELECT 'consume', $1, $2, -1, runs_remaining, $3, $1, $6, $7 FROM left_after
  RETURNING id, runs_remaining_after
), inserted AS (
  INSERT INTO runs (run_id, principal, project_id, mode, module_id, state, consumed_at, ledger_entry_id,
    runs_remaining_after)
  SELECT $3, $1, $4, $2, $5, 'consumed', $7, id, runs_remaining_after FROM entry
  RETURNING *
)
SELECT 'charged' AS outcome, * FROM inserted
UNION ALL
SELECT 'existing' AS outcome, * FROM existing
UNION ALL
SELECT 'credit' AS outcome, nothing.* FROM credit LEFT JOIN runs nothing ON FALSE`;

// The consume of purchased runs for a whole batch as one statement, the rows of the batch given as
// parallel arrays ($1 principal, $2 mode, $3 run_id, $4 project_id, $5 module_id, $6 reason, $7
// instant). Per row (its `ord`, 1-based), exactly what the single-consume statement answered:
// the inserted run ('charged'), the existing run of that run_id ('existing'), 'credit' when a
// rerun credit for this project exists (the caller spends it in its own transaction), or no row
// when no run was left. A batch never holds two rows of one (principal, mode) or one run_id
// (ConsumeBatcher splits them), so no balance row is updated twice by one statement.
//
// `locked` takes the balance row locks in (principal, mode) order before any is updated (LockRows
// sits above the Sort, so rows are locked as the sort emits them), so two batches of two service
// processes lock their common rows in the same order and cannot deadlock. Under READ COMMITTED a
// lock that waited returns the latest row version and the UPDATE re-checks its guard on it
// (PostgreSQL docs §13.2.1), as the single-row statement did.
export const CONSUME_BATCH_SQL = `
WITH req AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
    WITH ORDINALITY AS r(principal, mode, run_id, project_id, module_id, reason, ord)
), existing AS (
  -- LIMIT keeps the subquery from being flattened into a join the planner may answer with a scan of
  -- the whole runs table: one primary-key probe per row of the batch (run_id is unique)
  SELECT req.ord, found.* FROM req CROSS JOIN LATERAL (
    SELECT * FROM runs WHERE runs.run_id = req.run_id LIMIT 1
  ) found
), credit AS (
  SELECT req.ord FROM req
  WHERE NOT EXISTS (SELECT 1 FROM existing WHERE existing.ord = req.ord)
    AND EXISTS (SELECT 1 FROM rerun_credits c WHERE c.principal = req.principal AND c.mode = req.mode
      AND c.project_id = req.project_id AND c.used_run_id IS NULL)
), wanted AS (
  SELECT req.* FROM req
  WHERE NOT EXISTS (SELECT 1 FROM existing WHERE existing.ord = req.ord)
    AND NOT EXISTS (SELECT 1 FROM credit WHERE credit.ord = req.ord)
), locked AS (
  SELECT b.principal, b.mode FROM balances b JOIN wanted w ON b.principal = w.principal AND b.mode = w.mode
  ORDER BY b.principal, b.mode
  FOR UPDATE OF b
), charged AS (
  UPDATE balances b SET runs_remaining = b.runs_remaining - 1
  FROM locked l JOIN wanted w ON w.principal = l.principal AND w.mode = l.mode
  WHERE b.principal = l.principal AND b.mode = l.mode AND b.runs_remaining >= 1
  RETURNING w.ord, w.run_id, b.runs_remaining
), left_after AS (
  SELECT charged.ord, charged.run_id, w.principal, w.mode, w.reason,
    charged.runs_remaining + (SELECT count(*) FROM rerun_credits c
      WHERE c.principal = w.principal AND c.mode = w.mode AND c.used_run_id IS NULL) AS runs_remaining
  FROM charged JOIN wanted w ON w.ord = charged.ord
), entry AS (
  INSERT INTO ledger_entries (kind, principal, mode, delta, runs_remaining_after, run_id, actor, reason, created_at)
  SELECT 'consume', principal, mode, -1, runs_remaining, run_id, principal, reason, $7 FROM left_after
  ORDER BY ord
  RETURNING id, run_id, runs_remaining_after
), inserted AS (
  INSERT INTO runs (run_id, principal, project_id, mode, module_id, state, consumed_at, ledger_entry_id,
    runs_remaining_after)
  SELECT w.run_id, w.principal, w.project_id, w.mode, w.module_id, 'consumed', $7, entry.id,
    entry.runs_remaining_after
  FROM entry JOIN wanted w ON w.run_id = entry.run_id
  RETURNING *
)
SELECT 'charged' AS outcome, w.ord, inserted.* FROM inserted JOIN wanted w ON w.run_id = inserted.run_id
UNION ALL
SELECT 'existing' AS outcome, * FROM existing
UNION ALL
SELECT 'credit' AS outcome, credit.ord, nothing.* FROM credit LEFT JOIN runs nothing ON FALSE`;

/** The rows a consume writes or reads by key: its balance row and its run_id. */
const keysOf = (values: ConsumeValues): string[] => [
  `balance\u0000${values.principal}\u0000${values.mode}`,
  `run\u0000${values.runId}`,
];

interface Job {
  readonly values: ConsumeValues;
  readonly resolve: (row: Row | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** Most consumes one statement carries. */
const MAX_PER_BATCH = 256;
/**
 * Batches on the wire at once: while one is answered the next ones gather and run beside it, so
 * the database uses more than one core (issue 23 item 12: at 16 clients on 2 cores, `npm run bench
 * -- entitlement` measured 0.71-1.04x the raw driver with 2 in flight, 0.86-1.06x with 3, 0.82-0.90x
 * with 4, whose smaller batches cost more CPU per consume).
 */
const MAX_IN_FLIGHT = 3;

/**
 * Group commit for PostgreSQL consumes: the consumes that arrive while the previous batches are
 * on the wire (or in the same turn of the event loop when none is) go to the database as ONE
 * statement in one autocommit transaction, so the service pays one socket write, one round trip
 * and one WAL flush for all of them instead of one each (the per-query syscalls dominated the
 * service's profile, issue 23 item 12). There is no added delay: an idle batcher sends at the
 * end of the current turn. Every consume is answered only after its statement committed.
 *
 * Two consumes of one (principal, mode) or of one run_id never share a batch (a statement cannot
 * update one row twice, nor see its own insert), nor run in two batches at once: the later waits
 * until the batch holding the earlier has committed, so they run in arrival order. A statement that fails with a retryable code is retried whole by `execute`;
 * one that fails otherwise is retried one consume at a time, so one request's error is its own.
 */
export class ConsumeBatcher {
  readonly #execute: (query: pg.QueryConfig) => Promise<Row[]>;
  #pending: Job[] = [];
  #scheduled = false;
  #inFlight = 0;
  readonly #onTheWire = new Set<string>();
  readonly #whenIdle: (() => void)[] = [];

  /** `execute` runs one query, retrying it whole on serialization failure, deadlock or 23505. */
  constructor(execute: (query: pg.QueryConfig) => Promise<Row[]>) {
    this.#execute = execute;
  }

  /** Resolves with the consume's row of the batch statement (undefined: no run was left). */
  consume(values: ConsumeValues): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ values, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every consume queued so far has been answered (before the pool is closed). */
  idle(): Promise<void> {
    if (this.#inFlight === 0 && this.#pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  #schedule(): void {
    if (this.#inFlight === 0 && this.#pending.length === 0)
      for (const resolve of this.#whenIdle.splice(0)) resolve();
    if (this.#scheduled || this.#inFlight >= MAX_IN_FLIGHT || this.#pending.length === 0) return;
    this.#scheduled = true;
    // after the poll phase: every request read in this turn has queued its consume by then
    setImmediate(() => {
      this.#scheduled = false;
      this.#send();
    });
  }

  #send(): void {
    if (this.#inFlight >= MAX_IN_FLIGHT || this.#pending.length === 0) return;
    const batch: Job[] = [];
    const later: Job[] = [];
    // a key (balance or run_id) of a batch on the wire, of this batch, or of an earlier consume
    // left waiting holds back every later consume with that key: they run in arrival order
    const taken = new Set(this.#onTheWire);
    for (const job of this.#pending) {
      const keys = keysOf(job.values);
      if (batch.length >= MAX_PER_BATCH || keys.some((key) => taken.has(key))) later.push(job);
      else batch.push(job);
      for (const key of keys) taken.add(key);
    }
    this.#pending = later;
    // everything left waits for a batch on the wire; its end schedules the next one
    if (batch.length === 0) return;
    const keys = batch.flatMap((job) => keysOf(job.values));
    for (const key of keys) this.#onTheWire.add(key);
    this.#inFlight++;
    void this.#run(batch).finally(() => {
      for (const key of keys) this.#onTheWire.delete(key);
      this.#inFlight--;
      this.#schedule();
    });
    this.#schedule();
  }

  async #run(batch: Job[]): Promise<void> {
    let rows: (Row | undefined)[];
    try {
      rows = await this.#statement(batch);
    } catch (error) {
      if (batch.length === 1) {
        (batch[0] as Job).reject(error);
        return;
      }
      // one consume's own error must not fail the others: each alone, in arrival order
      for (const job of batch) {
        try {
          job.resolve((await this.#statement([job]))[0]);
        } catch (alone) {
          job.reject(alone);
        }
      }
      return;
    }
    batch.forEach((job, index) => {
      job.resolve(rows[index]);
    });
  }

  /** The rows of the batch's consumes, in batch order (undefined: no run was left). */
  async #statement(batch: Job[]): Promise<(Row | undefined)[]> {
    if (batch.length === 1) {
      const { values } = batch[0] as Job;
      const rows = await this.#execute({
        // named: each connection parses and plans it once, later calls send only the values
        name: "svc_consume_run",
        text: CONSUME_SQL,
        values: [
          values.principal,
          values.mode,
          values.runId,
          values.projectId,
          values.moduleId,
          values.reason,
          values.at,
        ],
      });
      return [rows[0]];
    }
    const column = (pick: (values: ConsumeValues) => string) => batch.map((job) => pick(job.values));
    const rows = await this.#execute({
      name: "svc_consume_batch",
      text: CONSUME_BATCH_SQL,
      values: [
        column((v) => v.principal),
        column((v) => v.mode),
        column((v) => v.runId),
        column((v) => v.projectId),
        column((v) => v.moduleId),
        column((v) => v.reason),
        // one instant for the batch: its consumes commit together
        (batch[0] as Job).values.at,
      ],
    });
    const byOrd = new Map<number, Row>();
    for (const row of rows) byOrd.set(Number(row.ord), row);
    return batch.map((_, index) => byOrd.get(index + 1));
  }
}
