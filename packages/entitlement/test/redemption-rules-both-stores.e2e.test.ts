import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestPostgres, type TestPostgres } from "@svc/testing";
import { PostgresLedgerStore } from "../src/store/postgres-ledger-store.ts";
import { sealTestRun, startTestService, type TestService } from "./app-harness.ts";

// issue 9 item 6 "Done when": each redemption rule has a test on SQLite and PostgreSQL, through
// HTTP with seals this service signed: issued principal once, 409 on the second try, 403 for
// another principal, an admin on its behalf, revoked refused, forged refused; plus issue 16's
// rerun seal refused.
type Answer = { status: number; code: string };

async function redemptionAnswers(svc: TestService): Promise<Record<string, Answer>> {
  const admin = { "x-svc-admin-token": svc.adminToken };
  await svc.request("/api/entitlement/issue", { body: { principal: "owner", runs: 4 }, headers: admin });
  const owner = await svc.tokenFor("owner");
  const other = await svc.tokenFor("other");
  let sequence = 0;
  const sealedRun = async (project: string) =>
    (await sealTestRun(svc, owner, { run_id: `run_rules_${sequence++}`, project_id: project })).seal as {
      seal_id: string;
      seal_svg: string;
      seal_json: string;
    };
  const redeem = async (svg: string, headers: Record<string, string>): Promise<Answer> => {
    const response = await fetch(`${svc.url}/api/entitlement/redeem_seal_once`, {
      method: "POST",
      headers: { "content-type": "image/svg+xml", ...headers },
      body: svg,
    });
    const body = (await response.json()) as { error?: { code: string } };
    return { status: response.status, code: body.error?.code ?? "none" };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const first = await sealedRun("alpha");
  const second = await sealedRun("beta");
  const third = await sealedRun("gamma");
  const answers: Record<string, Answer> = {};
  answers.otherPrincipal = await redeem(first.seal_svg, bearer(other));
  answers.issuedPrincipal = await redeem(first.seal_svg, bearer(owner));
  answers.secondTry = await redeem(first.seal_svg, bearer(owner));
  answers.adminOnBehalf = await redeem(second.seal_svg, admin);
  await svc.request("/api/seal/revoke", {
    body: { seal_id: third.seal_id, reason: "withdrawn" },
    headers: admin,
  });
  answers.revoked = await redeem(third.seal_svg, bearer(owner));
  const payload = Buffer.from(third.seal_json).toString("base64url");
  const forgedPayload = Buffer.from(
    third.seal_json.replace('"project_id":"gamma"', '"project_id":"delta"'),
  ).toString("base64url");
  answers.forged = await redeem(third.seal_svg.replaceAll(payload, forgedPayload), bearer(owner));
  const rerun = await sealedRun("alpha");
  answers.rerunSeal = await redeem(rerun.seal_svg, bearer(owner));
  return answers;
}

describe("redemption rules over HTTP on SQLite and PostgreSQL", { timeout: 120_000 }, () => {
  let postgres: TestPostgres;
  const services: [string, TestService][] = [];

  before(async () => {
    postgres = await startTestPostgres();
    const store = await PostgresLedgerStore.open(await postgres.createDatabase("rules"));
    services.push(["sqlite", await startTestService()], ["postgres", await startTestService({ store })]);
  });
  after(async () => {
    for (const [, svc] of services) await svc.close();
    await postgres?.stop();
  });

  it("issued principal once, 409 second, 403 other, admin on behalf, revoked, forged and rerun seals refused", async () => {
    for (const [name, svc] of services) {
      assert.deepEqual(
        await redemptionAnswers(svc),
        {
          otherPrincipal: { status: 403, code: "SEAL_NOT_YOURS" },
          issuedPrincipal: { status: 200, code: "none" },
          secondTry: { status: 409, code: "SEAL_ALREADY_REDEEMED" },
          adminOnBehalf: { status: 200, code: "none" },
          revoked: { status: 422, code: "SEAL_NOT_VERIFIED" },
          forged: { status: 422, code: "SEAL_NOT_VERIFIED" },
          rerunSeal: { status: 422, code: "SEAL_NOT_REDEEMABLE" },
        },
        name,
      );
    }
  });
});
