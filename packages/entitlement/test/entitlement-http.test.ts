import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generateSigningKey, issueSealBundle, newSealId, verifySealSvg } from "@svc/core";
import { startTestService, type TestService } from "./app-harness.ts";

const hex = (char: string) => char.repeat(64);
let sequence = 0;
const runId = () => `run_http_${Date.now()}_${sequence++}`;
const params = (run_id: string, overrides: Record<string, unknown> = {}) => ({
  run_id,
  project_id: "proj1",
  mode: "standard",
  module_id: "computational",
  ...overrides,
});
const startBody = (run_id: string) => ({
  ...params(run_id),
  category_id: "ligand_only",
  inputs_sha256: hex("a"),
  image: { reference: "registry/runner:1.0.0", digest: `sha256:${hex("f")}` },
});
const completeBody = (run_id: string) => ({
  run_id,
  outputs_sha256: hex("b"),
  run_manifest_sha256: hex("c"),
});

describe("entitlement service over HTTP", () => {
  let svc: TestService;
  let alice: string;
  let bob: string;

  const grant = async (principal: string, runs: number, extra: Record<string, unknown> = {}) =>
    svc.request("/api/entitlement/issue", {
      body: { principal, runs, ...extra },
      headers: { "x-svc-admin-token": svc.adminToken },
    });

  /** Runs check → consume → run_start → run_complete and returns the seal bundle. */
  const completeRun = async (token: string) => {
    const id = runId();
    assert.equal((await svc.request("/api/entitlement/consume", { token, body: params(id) })).status, 200);
    assert.equal(
      (await svc.request("/api/entitlement/run_start", { token, body: startBody(id) })).status,
      200,
    );
    const done = await svc.request("/api/entitlement/run_complete", { token, body: completeBody(id) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    return done.body.seal;
  };

  const upload = (path: string, svg: string, token?: string, asMultipart = false) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let body: string | FormData = svg;
    if (asMultipart) {
      const form = new FormData();
      form.set("file", new Blob([svg], { type: "image/svg+xml" }), "seal.svg");
      body = form;
    } else headers["content-type"] = "image/svg+xml";
    return fetch(`${svc.url}${path}`, { method: "POST", headers, body }).then(async (response) => ({
      status: response.status,
      // biome-ignore lint/suspicious/noExplicitAny: tests assert response bodies field by field
      body: (await response.json()) as any,
    }));
  };

  before(async () => {
    svc = await startTestService();
    alice = await svc.tokenFor("alice");
    bob = await svc.tokenFor("bob");
  });
  after(async () => {
    await svc.close();
  });

  it("walks check, consume, run_start, run_complete and returns a seal that verifies", async () => {
    assert.equal((await grant("alice", 3)).status, 200);
    const id = runId();
    const check = await svc.request("/api/entitlement/check", { token: alice, body: params(id) });
    assert.deepEqual(check.body, {
      run_id: id,
      principal: "alice",
      available: true,
      mode: "standard",
      runs_remaining: 3,
      already_consumed: false,
    });
    const consume = await svc.request("/api/entitlement/consume", { token: alice, body: params(id) });
    assert.equal(consume.status, 200);
    assert.equal(consume.body.runs_remaining, 2);
    const retry = await svc.request("/api/entitlement/consume", { token: alice, body: params(id) });
    assert.deepEqual(retry.body, consume.body, "idempotent consume");
    const started = await svc.request("/api/entitlement/run_start", { token: alice, body: startBody(id) });
    assert.equal(started.status, 200);
    assert.equal(started.body.state, "started");
    const done = await svc.request("/api/entitlement/run_complete", { token: alice, body: completeBody(id) });
    assert.equal(done.status, 200);
    const seal = done.body.seal;
    assert.equal(seal.payload.principal, "alice");
    assert.equal(seal.payload.run_id, id);
    assert.equal(seal.payload.issuer, svc.url);
    assert.equal(seal.seal_json, JSON.stringify(JSON.parse(seal.seal_json)), "seal_json is compact JSON");
    assert.match(seal.seal_sig, /^[A-Za-z0-9+/]+=*\n$/);
    const again = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: completeBody(id),
    });
    assert.deepEqual(again.body, done.body, "same hashes, same seal");
    const keys = await svc.request("/api/seal/keys");
    assert.equal(keys.body.keys[0].key_id, seal.key_id);
    assert.equal(verifySealSvg(seal.seal_svg, keys.body.keys).state, "VERIFIED", "offline verification");
    for (const multipart of [false, true]) {
      const verified = await upload("/api/seal/verify", seal.seal_svg, undefined, multipart);
      assert.equal(verified.status, 200);
      assert.equal(verified.body.state, "VERIFIED");
      assert.equal(verified.body.seal_id, seal.seal_id);
      assert.equal(verified.body.issued_here, true);
      assert.equal(verified.body.revoked, false);
    }
  });

  it("signs run_complete's claim_strength into the payload and draws it; a seal without one carries none; another value is 400 (issue 37 item 3)", async () => {
    assert.equal((await grant("alice", 3)).status, 200);
    const startRun = async () => {
      const id = runId();
      assert.equal(
        (await svc.request("/api/entitlement/consume", { token: alice, body: params(id) })).status,
        200,
      );
      assert.equal(
        (await svc.request("/api/entitlement/run_start", { token: alice, body: startBody(id) })).status,
        200,
      );
      return id;
    };
    const claimed = await startRun();
    const refused = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: { ...completeBody(claimed), claim_strength: "PROVEN" },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, "REQUEST_INVALID");
    assert.match(refused.body.error.message, /claim_strength/);
    const done = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: { ...completeBody(claimed), claim_strength: "HYPOTHESIS" },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.seal.payload.claim_strength, "HYPOTHESIS");
    assert.match(done.body.seal.seal_json, /"claim_strength":"HYPOTHESIS"/);
    assert.match(done.body.seal.seal_svg, /y="401"[^>]*>claim HYPOTHESIS: see report</);
    const keys = (await svc.request("/api/seal/keys")).body.keys;
    assert.equal(verifySealSvg(done.body.seal.seal_svg, keys).state, "VERIFIED");
    // a retry answers the seal first issued, whatever claim it now reports
    const again = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: { ...completeBody(claimed), claim_strength: "SUPPORTED" },
    });
    assert.deepEqual(again.body.seal, done.body.seal);
    const older = await startRun();
    const plain = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: completeBody(older),
    });
    assert.equal(plain.status, 200);
    assert.equal("claim_strength" in plain.body.seal.payload, false);
    assert.doesNotMatch(plain.body.seal.seal_svg, /y="401"/);
  });

  it("answers every status of the domain notes' table with a stable code and the error body", async () => {
    await grant("bob", 1);
    const id = runId();
    const missing = await svc.request("/api/entitlement/check", { body: params(id) });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, "AUTH_MISSING");
    assert.equal(missing.body.error.request_id, missing.headers.get("x-request-id"));
    assert.equal(
      (await svc.request("/api/entitlement/consume", { token: bob, body: params(id) })).status,
      200,
    );
    const exhausted = await svc.request("/api/entitlement/consume", { token: bob, body: params(runId()) });
    assert.equal(exhausted.status, 402);
    assert.equal(exhausted.body.error.code, "ENTITLEMENT_EXHAUSTED");
    assert.match(
      exhausted.body.error.message,
      /principal bob in mode standard/,
      "the 402 names who was checked",
    );
    const checkExhausted = await svc.request("/api/entitlement/check", { token: bob, body: params(runId()) });
    assert.equal(checkExhausted.body.error.code, "ENTITLEMENT_EXHAUSTED");
    const stolen = await svc.request("/api/entitlement/consume", { token: alice, body: params(id) });
    assert.equal(stolen.status, 409);
    assert.equal(stolen.body.error.code, "RUN_ID_CONFLICT");
    const changed = await svc.request("/api/entitlement/consume", {
      token: bob,
      body: params(id, { mode: "deep" }),
    });
    assert.equal(changed.body.error.code, "RUN_ID_CONFLICT");
    const early = await svc.request("/api/entitlement/run_complete", { token: bob, body: completeBody(id) });
    assert.equal(early.status, 422);
    assert.equal(early.body.error.code, "LIFECYCLE_OUT_OF_ORDER");
    const unconsumed = await svc.request("/api/entitlement/run_start", {
      token: bob,
      body: startBody(runId()),
    });
    assert.equal(unconsumed.status, 422);
    const forbidden = await svc.request("/api/entitlement/issue", {
      body: { principal: "bob", runs: 1 },
      headers: { "x-svc-admin-token": "wrong" },
    });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.code, "ADMIN_TOKEN_INVALID");
    const noAdmin = await svc.request("/api/entitlement/issue", { body: { principal: "bob", runs: 1 } });
    assert.equal(noAdmin.status, 403);
  });

  it("answers run_start and run_complete conflicts with 409", async () => {
    await grant("alice", 1);
    const id = runId();
    await svc.request("/api/entitlement/consume", { token: alice, body: params(id) });
    await svc.request("/api/entitlement/run_start", { token: alice, body: startBody(id) });
    const otherStart = await svc.request("/api/entitlement/run_start", {
      token: alice,
      body: { ...startBody(id), inputs_sha256: hex("9") },
    });
    assert.equal(otherStart.body.error.code, "RUN_START_CONFLICT");
    await svc.request("/api/entitlement/run_complete", { token: alice, body: completeBody(id) });
    const otherComplete = await svc.request("/api/entitlement/run_complete", {
      token: alice,
      body: { ...completeBody(id), outputs_sha256: hex("8") },
    });
    assert.equal(otherComplete.status, 409);
    assert.equal(otherComplete.body.error.code, "RUN_COMPLETE_CONFLICT");
  });

  it("answers 401 for expired, wrong-audience, untrusted, alg none, HS256-with-public-key and tampered tokens", async () => {
    const cases: [string, string][] = [
      [await svc.k8s.mintToken({ audience: svc.url, expiresInSec: -300 }), "AUTH_EXPIRED"],
      [await svc.k8s.mintToken({ audience: "https://elsewhere.example" }), "AUTH_WRONG_AUDIENCE"],
      [
        await svc.k8s.mintToken({ audience: svc.url, issuer: "https://evil.example" }),
        "AUTH_UNTRUSTED_ISSUER",
      ],
      [svc.k8s.mintUnsignedToken({ audience: svc.url }), "AUTH_INVALID"],
      [await svc.k8s.mintHs256WithPublicKey({ audience: svc.url }), "AUTH_INVALID"],
      [`${alice.slice(0, alice.lastIndexOf(".") + 1)}${"A".repeat(342)}`, "AUTH_INVALID"],
      ["garbage", "AUTH_MALFORMED"],
    ];
    for (const [token, code] of cases) {
      const response = await svc.request("/api/entitlement/check", { token, body: params(runId()) });
      assert.equal(response.status, 401, code);
      assert.equal(response.body.error.code, code);
    }
    const google = await svc.google.mintToken({
      audience: svc.url,
      email: "ci@proj.iam.gserviceaccount.com",
    });
    await grant("ci@proj.iam.gserviceaccount.com", 1);
    const ok = await svc.request("/api/entitlement/check", { token: google, body: params(runId()) });
    assert.equal(ok.body.principal, "ci@proj.iam.gserviceaccount.com");
  });

  it("answers 400 naming the offending field for malformed input, never 500", async () => {
    const cases: [unknown, RegExp][] = [
      [{ project_id: "p" }, /field run_id/],
      [{ run_id: "../../etc", project_id: "p" }, /field run_id/],
      [{ run_id: "r1", project_id: "p", mode: "turbo" }, /field mode/],
      ["{not json", /body/],
      [[1, 2], /field \(body\)/],
    ];
    for (const [body, message] of cases) {
      const response = await svc.request("/api/entitlement/consume", { token: alice, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.error.code, "REQUEST_INVALID");
      assert.match(response.body.error.message, message);
    }
    const issue = await svc.request("/api/entitlement/issue", {
      body: { principal: "x", runs: 0 },
      headers: { "x-svc-admin-token": svc.adminToken },
    });
    assert.match(issue.body.error.message, /field runs/);
    const start = await svc.request("/api/entitlement/run_start", {
      token: alice,
      body: { ...startBody("r"), image: { reference: "x", digest: "md5:1" } },
    });
    assert.match(start.body.error.message, /field image\.digest/);
  });

  it("issues with an idempotency key once and accepts every rotated admin token", async () => {
    const body = {
      principal: "carol",
      runs: 5,
      mode: "deep",
      idempotency_key: "order-42",
      reason: "order 42",
    };
    const first = await grant("carol", 5, body);
    const second = await grant("carol", 5, body);
    assert.equal(first.body.replayed, false);
    assert.deepEqual(second.body, { ...first.body, replayed: true });
    const rotated = await svc.request("/api/entitlement/issue", {
      body: { principal: "carol", runs: 1, mode: "deep" },
      headers: { "x-svc-admin-token": "old-rotated-token-value" },
    });
    assert.equal(rotated.body.runs_remaining, 6);
    const reused = await grant("carol", 7, { ...body, runs: 7 });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, "IDEMPOTENCY_KEY_CONFLICT");
    const ledger = await svc.store.listLedger("carol");
    assert.equal(ledger[0]?.reason, "order 42");
    assert.match(ledger[0]?.actor ?? "", /^admin:[0-9a-f]{12}$/);
  });

  it("redeems a verified seal once per (principal, seal_id), also concurrently, and refuses unverified seals", async () => {
    await grant("dora", 1, { mode: "deep" });
    const dora = await svc.tokenFor("dora");
    const id = runId();
    await svc.request("/api/entitlement/consume", { token: dora, body: params(id, { mode: "deep" }) });
    await svc.request("/api/entitlement/run_start", {
      token: dora,
      body: { ...startBody(id), mode: "deep" },
    });
    const seal = (await svc.request("/api/entitlement/run_complete", { token: dora, body: completeBody(id) }))
      .body.seal;
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        upload("/api/entitlement/redeem_seal_once", seal.seal_svg, dora, index % 2 === 0),
      ),
    );
    const ok = attempts.filter((attempt) => attempt.status === 200);
    assert.equal(ok.length, 1);
    assert.deepEqual(ok[0]?.body, {
      seal_id: seal.seal_id,
      principal: "dora",
      granted_runs: 1,
      mode: "deep",
      project_id: "proj1",
      runs_remaining: 1,
    });
    for (const attempt of attempts.filter((item) => item.status !== 200)) {
      assert.equal(attempt.status, 409);
      assert.equal(attempt.body.error.code, "SEAL_ALREADY_REDEEMED");
    }
    const foreign = issueSealBundle(
      {
        ...seal.payload,
        seal_id: newSealId(),
        seal_version: undefined,
        barcode_digest: undefined,
        key_id: undefined,
      },
      generateSigningKey(),
    );
    const unverified = await upload("/api/entitlement/redeem_seal_once", foreign.sealSvg, dora);
    assert.equal(unverified.status, 422);
    assert.equal(unverified.body.error.code, "SEAL_NOT_VERIFIED");
    const anonymous = await upload("/api/entitlement/redeem_seal_once", seal.seal_svg);
    assert.equal(anonymous.status, 401);
  });

  it("revokes a seal it issued (admin): verify then says revoked and redemption is refused", async () => {
    await grant("fred", 1);
    const fred = await svc.tokenFor("fred");
    const seal = await completeRun(fred);
    const revoke = (body: unknown, token = svc.adminToken) =>
      svc.request("/api/seal/revoke", { body, headers: { "x-svc-admin-token": token } });
    assert.equal(
      (await revoke({ seal_id: seal.seal_id, reason: "x" }, "not-the-admin-token-xxxx")).status,
      403,
    );
    const missingReason = await revoke({ seal_id: seal.seal_id });
    assert.equal(missingReason.status, 400);
    assert.match(missingReason.body.error.message, /reason/);
    const unknown = await revoke({ seal_id: newSealId(), reason: "typo" });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "SEAL_NOT_FOUND");
    const first = await revoke({ seal_id: seal.seal_id, reason: "inputs were mislabelled" });
    assert.deepEqual(first.body, { seal_id: seal.seal_id, revoked: true });
    assert.equal((await revoke({ seal_id: seal.seal_id, reason: "again" })).status, 200);
    const verified = await upload("/api/seal/verify", seal.seal_svg);
    assert.equal(verified.status, 200);
    assert.equal(verified.body.state, "REVOKED", "issue 9: revocation is a state");
    assert.equal(verified.body.reason_code, "REVOKED");
    assert.deepEqual(
      verified.body.checks.find((check: { name: string }) => check.name === "revocation")?.ok,
      false,
    );
    assert.match(verified.body.reason, /inputs were mislabelled/);
    assert.equal(verified.body.revoked_reason.startsWith("inputs were mislabelled"), true);
    assert.match(verified.body.revoked_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(verified.body.revoked, true);
    assert.equal(verified.body.payload.seal_id, seal.seal_id, "the signature itself stays valid");
    const redeemed = await upload("/api/entitlement/redeem_seal_once", seal.seal_svg, fred);
    assert.equal(redeemed.status, 422);
    assert.equal(redeemed.body.error.code, "SEAL_NOT_VERIFIED");
  });

  it("reports every seal tamper case through the endpoint and never redeems one", async () => {
    await grant("erin", 1);
    const erin = await svc.tokenFor("erin");
    const seal = await completeRun(erin);
    const svg: string = seal.seal_svg;
    const payload = Buffer.from(seal.seal_json).toString("base64url");
    const forgedPayload = Buffer.from(
      seal.seal_json.replace('"principal":"erin"', '"principal":"eve"'),
    ).toString("base64url");
    const foreignKey = issueSealBundle(
      { ...seal.payload, seal_version: undefined, barcode_digest: undefined, key_id: undefined },
      generateSigningKey(),
    ).sealSvg;
    const ringStart = svg.indexOf("<path d=", svg.indexOf("<g "));
    const tampered: [string, string, string][] = [
      ["payload edited in both copies", svg.replaceAll(payload, forgedPayload), "INVALID"],
      ["copies disagree", svg.replace(payload, forgedPayload), "INVALID"],
      [
        "ring segment removed",
        svg.slice(0, ringStart) + svg.slice(svg.indexOf("/>", ringStart) + 2),
        "INVALID",
      ],
      [
        "QR code replaced",
        svg.replace(/<path fill="#000" d="[^"]*"\/>/, '<path fill="#000" d="M0 0h1v1h-1z"/>'),
        "INVALID",
      ],
      ["signed by an untrusted key", foreignKey, "UNVERIFIED"],
    ];
    for (const [name, content, state] of tampered) {
      const verified = await upload("/api/seal/verify", content);
      assert.equal(verified.status, 200, name);
      assert.equal(verified.body.state, state, `${name}: ${verified.body.reason}`);
      // issue 9: an answer that is not VERIFIED echoes nothing the upload claims
      assert.deepEqual(Object.keys(verified.body).sort(), ["checks", "reason", "reason_code", "state"], name);
      const redeemed = await upload("/api/entitlement/redeem_seal_once", content, erin);
      assert.equal(redeemed.status, 422, name);
    }
  });

  it("lets only the issued principal redeem (403 SEAL_NOT_YOURS for others) and an admin on their behalf", async () => {
    await grant("gina", 2);
    const gina = await svc.tokenFor("gina");
    const mallory = await svc.tokenFor("mallory");
    const seal = await completeRun(gina);
    const other = await completeRun(gina);
    const stolen = await upload("/api/entitlement/redeem_seal_once", seal.seal_svg, mallory);
    assert.equal(stolen.status, 403);
    assert.equal(stolen.body.error.code, "SEAL_NOT_YOURS");
    assert.match(stolen.body.error.message, /mallory/);
    const adminUpload = (svg: string, token: string, query = "") =>
      fetch(`${svc.url}/api/entitlement/redeem_seal_once${query}`, {
        method: "POST",
        headers: { "content-type": "image/svg+xml", "x-svc-admin-token": token },
        body: svg,
        // biome-ignore lint/suspicious/noExplicitAny: tests assert response bodies field by field
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    assert.equal((await adminUpload(seal.seal_svg, "not-an-admin-token-xxxx")).status, 403);
    const onBehalf = await adminUpload(seal.seal_svg, svc.adminToken);
    assert.equal(onBehalf.status, 200, JSON.stringify(onBehalf.body));
    assert.equal(onBehalf.body.principal, "gina");
    const second = await upload("/api/entitlement/redeem_seal_once", seal.seal_svg, gina);
    assert.equal(second.status, 409);
    assert.equal(second.body.error.code, "SEAL_ALREADY_REDEEMED");
    const forOther = await adminUpload(other.seal_svg, svc.adminToken, "?principal=mallory");
    assert.equal(forOther.status, 403);
    assert.equal(forOther.body.error.code, "SEAL_NOT_YOURS");
  });

  it("grant 1 run: redemption gives one rerun of the same project whose signed seal says funding rerun and cannot be redeemed", async () => {
    await grant("hank", 1);
    const hank = await svc.tokenFor("hank");
    const first = await completeRun(hank);
    assert.equal(first.payload.funding, undefined, "a purchased run's seal has no funding field");
    const redeemed = await Promise.all(
      Array.from({ length: 8 }, () => upload("/api/entitlement/redeem_seal_once", first.seal_svg, hank)),
    );
    assert.equal(redeemed.filter((answer) => answer.status === 200).length, 1);
    const elsewhere = await svc.request("/api/entitlement/consume", {
      token: hank,
      body: params(runId(), { project_id: "another_project" }),
    });
    assert.equal(elsewhere.status, 402, "the rerun credit pays only for its own project");
    const rerun = await completeRun(hank);
    assert.equal(rerun.payload.funding, "rerun");
    assert.equal(rerun.payload.rerun_of, first.seal_id);
    assert.equal(JSON.parse(rerun.seal_json).rerun_of, first.seal_id, "the funding is signed");
    const verified = await upload("/api/seal/verify", rerun.seal_svg);
    assert.equal(verified.body.state, "VERIFIED");
    const again = await upload("/api/entitlement/redeem_seal_once", rerun.seal_svg, hank);
    assert.equal(again.status, 422);
    assert.equal(again.body.error.code, "SEAL_NOT_REDEEMABLE");
    const exhausted = await svc.request("/api/entitlement/consume", { token: hank, body: params(runId()) });
    assert.equal(exhausted.status, 402);
    const sealed = (await svc.store.listLedger("hank")).filter((entry) => entry.kind === "consume");
    assert.equal(sealed.length, 2, "one purchased run, at most two sealed runs");
  });

  it("refuses hostile uploads with 4xx and keeps serving", async () => {
    const big = `<svg xmlns="http://www.w3.org/2000/svg">${" ".repeat(1024 * 1024 + 10)}</svg>`;
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg">&lol2;</svg>`;
    const cases: [string, string | Uint8Array<ArrayBuffer>, string | undefined, number][] = [
      ["oversized raw", big, "image/svg+xml", 413],
      ["entity expansion", lol, "image/svg+xml", 400],
      ["not XML", "this is not xml <<<", "image/svg+xml", 400],
      ["binary", new Uint8Array([0xff, 0xfe, 0x00, 0x01]), "image/svg+xml", 400],
      ["wrong content type", "<svg/>", "text/plain", 415],
      ["json instead of svg", "{}", "application/json", 415],
      ["empty body", "", "image/svg+xml", 400],
    ];
    for (const [name, body, type, status] of cases) {
      const response = await fetch(`${svc.url}/api/seal/verify`, {
        method: "POST",
        headers: type ? { "content-type": type } : {},
        body,
      });
      assert.equal(response.status, status, name);
      const json = (await response.json()) as { error: { code: unknown } };
      assert.equal(typeof json.error.code, "string", name);
    }
    const form = new FormData();
    form.set("file", new Blob([big]), "seal.svg");
    const oversizedPart = await fetch(`${svc.url}/api/seal/verify`, { method: "POST", body: form });
    assert.equal(oversizedPart.status, 413);
    const wrongField = new FormData();
    wrongField.set("other", new Blob(["<svg/>"]), "seal.svg");
    const wrong = await fetch(`${svc.url}/api/seal/verify`, { method: "POST", body: wrongField });
    assert.equal(wrong.status, 400);
    const truncated = await fetch(`${svc.url}/api/seal/verify`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.svg"\r\n\r\n<svg',
    });
    assert.ok(truncated.status >= 400 && truncated.status < 500, `truncated multipart: ${truncated.status}`);
    assert.equal((await svc.request("/api/health")).body.status, "ok");
  });

  it("answers a multipart upload with two files with the documented 413 MULTIPART_LIMIT, verifying neither (issue 23 item 10)", async () => {
    await grant("two-files", 1);
    const seal = await completeRun(await svc.tokenFor("two-files"));
    const one = new FormData();
    one.append("file", new Blob([seal.seal_svg], { type: "image/svg+xml" }), "seal.svg");
    const single = await fetch(`${svc.url}/api/seal/verify`, { method: "POST", body: one });
    assert.equal(single.status, 200);
    assert.equal(((await single.json()) as { state: string }).state, "VERIFIED");
    for (const second of ["file", "other"]) {
      const form = new FormData();
      form.append("file", new Blob([seal.seal_svg], { type: "image/svg+xml" }), "seal.svg");
      form.append(second, new Blob(["<svg/>"], { type: "image/svg+xml" }), "forged.svg");
      const response = await fetch(`${svc.url}/api/seal/verify`, { method: "POST", body: form });
      const body = (await response.json()) as { state?: string; error?: { code: string; message: string } };
      assert.equal(response.status, 413, `second file named ${second}: ${body.error?.code ?? body.state}`);
      assert.equal(body.error?.code, "MULTIPART_LIMIT");
      assert.match(body.error?.message ?? "", /more than 1 file/);
      assert.equal(body.state, undefined);
    }
    assert.equal((await svc.request("/api/health")).body.status, "ok");
  });

  it("serves health, ready, metrics, the dev issuer discovery and keeps request ids", async () => {
    assert.deepEqual((await svc.request("/api/ready")).body, { status: "ready", store: "sqlite" });
    const metrics = await fetch(`${svc.url}/metrics`).then((response) => response.text());
    assert.match(metrics, /svc_entitlement_runs_consumed_total\{mode="standard",funding="purchased"\} \d+/);
    assert.match(metrics, /svc_entitlement_http_requests_total/);
    const discovery = await svc.request("/dev-issuer/.well-known/openid-configuration");
    assert.equal(discovery.body.issuer, `${svc.url}/dev-issuer`);
    const jwks = await svc.request("/dev-issuer/jwks.json");
    assert.equal(jwks.body.keys.length, 1);
    assert.equal(jwks.body.keys[0].d, undefined, "no private key material");
    const traced = await svc.request("/api/health", { headers: { "x-request-id": "trace-123" } });
    assert.equal(traced.headers.get("x-request-id"), "trace-123");
    const unknown = await svc.request("/api/nope");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "NOT_FOUND");
  });
});
