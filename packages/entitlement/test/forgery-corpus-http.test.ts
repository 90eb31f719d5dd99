import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { verifySealSvg } from "@svc/core";
import { buildForgeryCorpus, prettyPrintSeal } from "@svc/testing";
import { sealTestRun, startTestService, type TestService } from "./app-harness.ts";

// issue 9 "Done when": the forgery corpus, built from seals this service just issued, gets the same
// state and reason code from POST /api/seal/verify as from verifySealSvg, and none is redeemable.
describe("the forgery corpus through POST /api/seal/verify", { timeout: 300_000 }, () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  it("answers every forgery as verifySealSvg does (state and reason code) and redeems none", async () => {
    const admin = { "x-svc-admin-token": svc.adminToken };
    await svc.request("/api/entitlement/issue", { body: { principal: "corpus", runs: 2 }, headers: admin });
    const token = await svc.tokenFor("corpus");
    const issue = async (runId: string, project: string) =>
      (await sealTestRun(svc, token, { run_id: runId, project_id: project })).seal.seal_svg as string;
    const genuine = await issue("run_corpus_genuine", "alpha");
    const decoy = await issue("run_corpus_decoy", "beta");
    const keys = (await svc.request("/api/seal/keys")).body.keys;
    const post = async (svg: string, path = "/api/seal/verify", headers: Record<string, string> = {}) => {
      const response = await fetch(`${svc.url}${path}`, {
        method: "POST",
        headers: { "content-type": "image/svg+xml", ...headers },
        body: svg,
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads fields of the answers
      return { status: response.status, body: (await response.json()) as any };
    };
    for (const svg of [genuine, prettyPrintSeal(genuine)]) {
      const answer = await post(svg);
      assert.equal(answer.body.state, "VERIFIED");
      assert.equal(typeof answer.body.canonical_svg, "string");
    }
    const corpus = buildForgeryCorpus({ genuine, decoy });
    assert.ok(corpus.length >= 60);
    for (const forgery of corpus) {
      const offline = verifySealSvg(forgery.svg, keys);
      const online = await post(forgery.svg);
      if (online.status === 400) {
        assert.ok(["SVG_UNREADABLE", "SVG_TOO_COMPLEX"].includes(offline.reason_code ?? ""), forgery.name);
        assert.match(
          online.body.error.message,
          new RegExp(`^field file: ${offline.reason_code}`),
          forgery.name,
        );
      } else {
        assert.equal(online.body.state, offline.state, forgery.name);
        assert.equal(online.body.reason_code, forgery.code, forgery.name);
        assert.equal(online.body.payload, undefined, forgery.name);
      }
      const redeemed = await post(forgery.svg, "/api/entitlement/redeem_seal_once", {
        authorization: `Bearer ${token}`,
      });
      assert.ok([400, 422].includes(redeemed.status), `${forgery.name}: redeem ${redeemed.status}`);
    }
  });
});
