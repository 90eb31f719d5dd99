import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, describe, it } from "node:test";
import { SqliteGroupCommit } from "./sqlite-group-commit.ts";

describe("SqliteGroupCommit", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-group-commit-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const open = (name: string) => {
    const db = new DatabaseSync(join(dir, name));
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (v TEXT NOT NULL)");
    return db;
  };
  const values = (db: DatabaseSync) =>
    db
      .prepare("SELECT v FROM t ORDER BY rowid")
      .all()
      .map((row) => row.v);

  it("commits the jobs of one turn together and rolls back a failing job alone", async () => {
    const db = open("alone.sqlite");
    const batch = new SqliteGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const results = await Promise.allSettled([
      batch.run(() => insert.run("a")),
      batch.run(() => {
        insert.run("half-written");
        throw new Error("refused");
      }),
      batch.run(() => {
        insert.run("c");
        return "c done";
      }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    assert.equal((results[1] as PromiseRejectedResult).reason.message, "refused");
    assert.equal((results[2] as PromiseFulfilledResult<string>).value, "c done");
    assert.deepEqual(values(db), ["a", "c"]);
    db.close();
  });

  it("rolls back a failing job that is alone in its batch", async () => {
    const db = open("single.sqlite");
    const batch = new SqliteGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    await assert.rejects(
      batch.run(() => {
        insert.run("half-written");
        throw new Error("refused");
      }),
      /refused/,
    );
    await batch.run(() => insert.run("next"));
    assert.deepEqual(values(db), ["next"]);
    db.close();
  });

  it("settles a job only after its commit is visible to another connection", async () => {
    const db = open("visible.sqlite");
    const batch = new SqliteGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const other = new DatabaseSync(join(dir, "visible.sqlite"));
    let seenByOther: unknown[] = [];
    await batch
      .run(() => insert.run("x"))
      .then(() => {
        seenByOther = values(other);
      });
    assert.deepEqual(seenByOther, ["x"]);
    other.close();
    db.close();
  });

  it("fails every job of a batch whose transaction cannot start, and recovers for the next", async () => {
    const db = open("busy.sqlite");
    db.exec("PRAGMA busy_timeout = 0");
    const batch = new SqliteGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const holder = new DatabaseSync(join(dir, "busy.sqlite"));
    holder.exec("BEGIN IMMEDIATE");
    const results = await Promise.allSettled([
      batch.run(() => insert.run("1")),
      batch.run(() => insert.run("2")),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ["rejected", "rejected"],
    );
    holder.exec("ROLLBACK");
    holder.close();
    await batch.run(() => insert.run("3"));
    assert.deepEqual(values(db), ["3"]);
    db.close();
  });

  it("flush commits queued jobs at once, before the database is closed", async () => {
    const db = open("flush.sqlite");
    const batch = new SqliteGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const pending = batch.run(() => insert.run("queued"));
    batch.flush();
    assert.deepEqual(values(db), ["queued"]);
    db.close();
    await pending;
  });
});
