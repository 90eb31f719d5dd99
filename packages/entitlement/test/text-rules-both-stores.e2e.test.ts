import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { startTestService, type TestService } from "./app-harness.ts";

// issue 16 item 2 + issue 9 item 2: NUL gave 500 on PostgreSQL and was stored by SQLite; a lone
// surrogate was stored as U+FFFD so the identical retry got 409; U+202E, homoglyphs and markup
// were signed and drawn. Every case below gets the same answer on both stores and writes nothing.
type Answer = { status: number; code: string; message: string };

const hex = (char: string) => char.repeat(64);
const start = (runId: string, overrides: Record<string, unknown> = {}) => ({
  run_id: runId,
  project_id: "texts",
  category_id: "ligand_only",
  inputs_sha256: hex("a"),
  image: { reference: "registry/runner:1.0.0", digest: null },
  ...overrides,
});

/** Runs every hostile-text case against one service and returns the answers in order. */
async function hostileTextAnswers(svc: TestService): Promise<Answer[]> {
  const admin = { "x-svc-admin-token": svc.adminToken };
  const answers: Answer[] = [];
  const record = (response: { status: number; body: { error?: { code: string; message: string } } }) => {
    answers.push({
      status: response.status,
      code: response.body.error?.code ?? "none",
      message: response.body.error?.message ?? "",
    });
    return response;
  };
  const issue = (body: Record<string, unknown>) =>
    svc.request("/api/entitlement/issue", { body: { runs: 1, ...body }, headers: admin }).then(record);
  assert.equal(
    (await svc.request("/api/entitlement/issue", { body: { principal: "texter", runs: 1 }, headers: admin }))
      .status,
    200,
  );
  const texter = await svc.tokenFor("texter");
  const runId = "run_texts_1";
  assert.equal(
    (
      await svc.request("/api/entitlement/consume", {
        token: texter,
        body: { run_id: runId, project_id: "texts" },
      })
    ).status,
    200,
  );

  await issue({ principal: "nul\u0000here" });
  await issue({ principal: "texter", reason: "order\u0000 42" });
  await issue({ principal: "Mu\u0308ller" });
  await issue({ principal: "eve<script>" });
  await issue({ principal: "\ud800" });
  for (const overrides of [
    { category_id: "ligand\u0000only" },
    { image: { reference: "registry/runner\u0000:1", digest: null } },
    { category_id: "ligand\ud800" },
    { category_id: "ligand\u202eonly" },
    { category_id: "d\u0435ep" },
    { image: { reference: 'runner:1"><script>', digest: null } },
  ])
    await svc
      .request("/api/entitlement/run_start", { token: texter, body: start(runId, overrides) })
      .then(record);
  for (const subject of ["nul\u0000sub", "lone\ud800", "spaced sub"])
    await svc
      .request("/api/entitlement/consume", {
        token: await svc.tokenFor(subject),
        body: { run_id: `run_texts_${answers.length}`, project_id: "texts" },
      })
      .then(record);

  // nothing was written: the balance, the run's state and the ledger are as before
  assert.equal(await svc.store.getBalance("texter", "standard"), 0);
  assert.equal((await svc.store.getRun(runId))?.state, "consumed");
  assert.equal((await svc.store.listLedger()).length, 2);
  // and the clean retry still works
  const clean = await svc.request("/api/entitlement/run_start", { token: texter, body: start(runId) });
  assert.equal(clean.status, 200);
  return answers;
}

describe("text the database and the signer accept, on SQLite and PostgreSQL", { timeout: 120_000 }, () => {
  let postgres: TestPostgres;
  let sqliteService: TestService;
  let postgresService: TestService;

  before(async () => {
    postgres = await startTestPostgres();
    const store = await PostgresLedgerStore.open(await postgres.createDatabase("texts"));
    [sqliteService, postgresService] = await Promise.all([startTestService(), startTestService({ store })]);
  });
  after(async () => {
    await sqliteService?.close();
    await postgresService?.close();
    await postgres?.stop();
  });

  it("refuses control characters, lone surrogates and non-NFC with 400, unsafe seal text with 422, identically, before any write", async () => {
    const onSqlite = await hostileTextAnswers(sqliteService);
    const onPostgres = await hostileTextAnswers(postgresService);
    assert.deepEqual(onPostgres, onSqlite, "same answers on both stores");
    const expected: [number, string, RegExp][] = [
      [400, "REQUEST_INVALID", /^field principal: contains control character U\+0000/],
      [400, "REQUEST_INVALID", /^field reason: contains control character U\+0000/],
      [400, "REQUEST_INVALID", /^field principal: is not in Unicode normalization form NFC/],
      [422, "FIELD_NOT_SEAL_SAFE", /^field principal: U\+003C /],
      [400, "REQUEST_INVALID", /^field principal: contains a lone UTF-16 surrogate/],
      [400, "REQUEST_INVALID", /^field category_id: contains control character U\+0000/],
      [400, "REQUEST_INVALID", /^field image\.reference: contains control character U\+0000/],
      [400, "REQUEST_INVALID", /^field category_id: contains a lone UTF-16 surrogate/],
      [422, "FIELD_NOT_SEAL_SAFE", /^field category_id: U\+202E /],
      [422, "FIELD_NOT_SEAL_SAFE", /^field category_id: U\+0435 /],
      [422, "FIELD_NOT_SEAL_SAFE", /^field image\.reference: U\+0022 /],
      [400, "REQUEST_INVALID", /^claim sub: contains control character U\+0000/],
      [400, "REQUEST_INVALID", /^claim sub: contains a lone UTF-16 surrogate/],
      [422, "FIELD_NOT_SEAL_SAFE", /^field principal: U\+0020 /],
    ];
    assert.equal(onSqlite.length, expected.length);
    expected.forEach(([status, code, message], index) => {
      const answer = onSqlite[index] as Answer;
      assert.equal(answer.status, status, `case ${index}: ${JSON.stringify(answer)}`);
      assert.equal(answer.code, code, `case ${index}`);
      assert.match(answer.message, message, `case ${index}`);
    });
  });
});
