import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateSigningKey, type TrustedKey, toTrustedKey } from "../keys.ts";
import { checkIssuerAnswer } from "./issuer-answer-check.ts";
import { renderPresealSvg } from "./render-seal-svg.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { verifySealSvg, withChecks } from "./verify-seal-svg.ts";

const A = "https://issuer-a.example";
const B = "https://issuer-b.example";

describe("a key verifies only seals of the issuer it was pinned for (issue 23 item 8)", () => {
  const keyA = generateSigningKey();
  const keyB = generateSigningKey();
  const pinnedA: TrustedKey = { ...toTrustedKey(keyA.publicKey), issuer: A };
  const pinnedB: TrustedKey = { ...toTrustedKey(keyB.publicKey), issuer: B };
  const trustFile = [pinnedA, pinnedB];

  it("verifies each issuer's own seals", () => {
    assert.equal(
      verifySealSvg(makeSealFixture({ issuer: A }, keyA).bundle.sealSvg, trustFile).state,
      "VERIFIED",
    );
    assert.equal(
      verifySealSvg(makeSealFixture({ issuer: B }, keyB).bundle.sealSvg, trustFile).state,
      "VERIFIED",
    );
  });

  it("refuses issuer B's seal naming issuer A as INVALID with ISSUER_MISMATCH", () => {
    const forged = makeSealFixture({ issuer: A, verify_url: `${A}/verify` }, keyB).bundle.sealSvg;
    const result = verifySealSvg(forged, trustFile);
    assert.equal(result.state, "INVALID");
    assert.equal(result.reason_code, "ISSUER_MISMATCH");
    assert.match(
      result.reason,
      /pinned for https:\/\/issuer-b\.example, but the seal names https:\/\/issuer-a\.example/,
    );
    assert.equal(result.canonical_svg, null);
  });

  it("a key pinned without an issuer (by hand, or before keys named one) still verifies any", () => {
    const { issuer: _unbound, ...unbound } = pinnedB;
    const forged = makeSealFixture({ issuer: A }, keyB).bundle.sealSvg;
    assert.equal(verifySealSvg(forged, [unbound]).state, "VERIFIED");
  });
});

describe("checkIssuerAnswer: the issuer's answer fails closed (issue 23 items 4, 6, 8)", () => {
  const { bundle, trusted } = makeSealFixture();
  const offline = verifySealSvg(bundle.sealSvg, trusted);
  const online = (status: number, body: unknown) =>
    withChecks(offline, [checkIssuerAnswer(A, { kind: "answered", status, body })]);

  it("passes only the issuer's VERIFIED for a seal its ledger holds", () => {
    const result = online(200, { state: "VERIFIED", issued_here: true });
    assert.equal(result.state, "VERIFIED");
  });

  it("is REVOCATION_UNKNOWN for a busy, failing or silent issuer", () => {
    for (const result of [
      online(503, { error: { code: "VERIFY_BUSY", message: "busy", request_id: "r" } }),
      online(500, "<html>"),
      online(200, { nothing: true }),
      withChecks(offline, [checkIssuerAnswer(A, { kind: "no_answer", detail: "ECONNREFUSED" })]),
    ]) {
      assert.equal(result.state, "REVOCATION_UNKNOWN");
      assert.equal(result.reason_code, "REVOCATION_UNKNOWN");
    }
    assert.match(online(503, { error: { code: "VERIFY_BUSY" } }).reason, /HTTP 503 VERIFY_BUSY/);
  });

  it("is NOT_ISSUED_HERE when the issuer did not issue or does not vouch for the seal", () => {
    for (const body of [
      { state: "NOT_ISSUED_HERE", reason_code: "NOT_ISSUED_HERE" },
      { state: "VERIFIED", issued_here: false },
      { state: "UNVERIFIED", reason_code: "KEY_UNTRUSTED" },
      { state: "INVALID", reason_code: "IMAGE_NOT_CANONICAL" },
    ]) {
      const result = online(200, body);
      assert.equal(result.state, "NOT_ISSUED_HERE", JSON.stringify(body));
      assert.equal(result.reason_code, "NOT_ISSUED_HERE");
    }
  });

  it("is ISSUED_SEAL_MISMATCH, its own state, when the issuer issued another seal under this id (issue 38 item 1)", () => {
    const result = online(200, {
      state: "ISSUED_SEAL_MISMATCH",
      reason_code: "ISSUED_SEAL_MISMATCH",
      issued_here: false,
    });
    assert.equal(result.state, "ISSUED_SEAL_MISMATCH");
    assert.equal(result.reason_code, "ISSUED_SEAL_MISMATCH");
    assert.match(result.reason, /issued another seal under this seal id/);
  });

  it("the issuer's ISSUED_SEAL_MISMATCH decides over the folder's LOG_ENTRY_MISMATCH, as on the page", () => {
    const result = withChecks(offline, [
      { name: "log_inclusion", ok: false, detail: "not this seal's leaf", code: "LOG_ENTRY_MISMATCH" },
      checkIssuerAnswer(A, {
        kind: "answered",
        status: 200,
        body: { state: "ISSUED_SEAL_MISMATCH", reason_code: "ISSUED_SEAL_MISMATCH" },
      }),
    ]);
    assert.equal(result.reason_code, "ISSUED_SEAL_MISMATCH");
  });

  it("is REVOKED with when and why", () => {
    const result = online(200, {
      state: "REVOKED",
      revoked_at: "2026-11-24T00:00:00Z",
      revoked_reason: "withdrawn",
    });
    assert.equal(result.state, "REVOKED");
    assert.match(result.reason, /revoked by https:\/\/issuer-a\.example at 2026-11-24T00:00:00Z: withdrawn/);
  });

  it("a definite offline failure still decides over any answer of the issuer", () => {
    const tampered = verifySealSvg(bundle.sealSvg.replace("demo-project", "demo-projecT"), trusted);
    const result = withChecks(tampered, [checkIssuerAnswer(A, { kind: "no_answer", detail: "down" })]);
    assert.equal(result.state, "INVALID");
  });
});

describe("a pre-seal's picture says it is an unsigned claim (issue 23 item 7)", () => {
  it("reads UNSIGNED CLAIM, never 'pending verification'", () => {
    const svg = renderPresealSvg({
      seal_version: "svc.preseal/v1",
      run_id: "run_1",
      project_id: "p",
      mode: "standard",
      module_id: "computational",
      category_id: "ligand_only",
      image: { reference: "runner:1.0.0", digest: null },
      inputs_sha256: "a".repeat(64),
      run_manifest_sha256: "b".repeat(64),
      outputs_sha256: "c".repeat(64),
      created_at: "2026-11-21T10:00:00Z",
      reason: "run_complete_unreachable",
    });
    assert.match(svg, />UNSIGNED CLAIM, not a seal</);
    assert.match(svg, /<title>Unsigned pre-seal for run run_1<\/title>/);
    assert.doesNotMatch(svg, /pending/i);
  });
});
