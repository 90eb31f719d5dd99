import type { DatabaseSync, StatementSync } from "node:sqlite";

interface Job {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Most jobs one transaction carries, so one batch cannot hold the event loop for long. */
const MAX_JOBS_PER_COMMIT = 256;

/**
 * Group commit for a SQLite file opened with synchronous=FULL: the writes that arrive in the same
 * turn of the event loop share one BEGIN IMMEDIATE ... COMMIT, so one fsync serves them all
 * instead of one fsync each (the fsync blocks the thread and dominates a short transaction).
 *
 * Each job runs inside its own SAVEPOINT, so a job that throws is rolled back alone and the
 * others still commit: every job is as atomic as if it had its own transaction. No promise is
 * settled before COMMIT has returned, so an answer given to a client is on disk (durability is
 * the same as one transaction per job); if COMMIT fails, every job of the batch fails.
 */
export class SqliteGroupCommit {
  readonly #db: DatabaseSync;
  readonly #savepoint: StatementSync;
  readonly #release: StatementSync;
  readonly #rollbackTo: StatementSync;
  #pending: Job[] = [];
  #scheduled = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#savepoint = db.prepare("SAVEPOINT job");
    this.#release = db.prepare("RELEASE job");
    this.#rollbackTo = db.prepare("ROLLBACK TO job");
  }

  /** Runs `work` (synchronous, no awaiting inside) in the next batch; settles after the commit. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // after the poll phase: every request read in this turn has queued its job by then
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now (also called before the database is closed). */
  flush(): void {
    this.#scheduled = false;
    while (this.#pending.length > 0) {
      const jobs = this.#pending.splice(0, MAX_JOBS_PER_COMMIT);
      this.#commit(jobs);
    }
  }

  #commit(jobs: Job[]): void {
    if (jobs.length === 1) {
      this.#commitAlone(jobs[0] as Job);
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.#db.exec("BEGIN IMMEDIATE");
      for (const job of jobs) {
        this.#savepoint.run();
        try {
          const value = job.work();
          this.#release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          // an error that already ended the transaction makes ROLLBACK TO throw: the batch fails below
          this.#rollbackTo.run();
          this.#release.run();
          outcomes.push({ ok: false, value: error });
        }
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index] as { ok: boolean; value: unknown };
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }

  // A batch of one needs no savepoint: its transaction is its own (the common case at low load).
  #commitAlone(job: Job): void {
    let value: unknown;
    try {
      this.#db.exec("BEGIN IMMEDIATE");
      value = job.work();
      this.#db.exec("COMMIT");
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      job.reject(error);
      return;
    }
    job.resolve(value);
  }
}
