import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalBytes } from "../canonical-json.ts";
import { CLAIM_STRENGTHS } from "../contracts/claim-strength.ts";
import { runCompleteSchema } from "../contracts/entitlement-requests.ts";
import { sha256Hex } from "../digest.ts";
import { importSigningKeyPem, signBytes } from "../keys.ts";
import { CLAIM_LINE_LABELS } from "./claim-line.ts";
import { type ClaimSummary, checkClaimStrength } from "./claim-strength-check.ts";
import { renderSealSvg } from "./render-seal-svg.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { describeClaimStrength, parseSealPayload, SEAL_VERSION } from "./seal-payload.ts";
import { verifySealSvg } from "./verify-seal-svg.ts";

// A fixed Ed25519 key (seed 32 × 0x07): Ed25519 signatures are deterministic, so the fixture's
// seal.svg is the same bytes on every run.
const FIXED_KEY = importSigningKeyPem(
  "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH\n-----END PRIVATE KEY-----\n",
);
// SHA-256 of makeSealFixture({}, FIXED_KEY).bundle.sealSvg rendered by the renderer before issue 37
// (commit c29e1ce), and of the same seal with a verify_url.
const BEFORE_ISSUE_37 = "7d9b40fddd233361b91cbee6a40a4b7b8dc8eb15ed096a5dc37ef929e31581c9";
const BEFORE_ISSUE_37_WITH_URL = "f7590ce4fe844ef94f93bd403e24ba91eb1f95d69b212aca73fcd77de280f017";

const file = (text: string): ClaimSummary => ({ kind: "file", text });
const summary = (claim: unknown) =>
  file(
    `${JSON.stringify({ schema: "svc.summary/v2", claim_strength: claim, claim_reasons: [] }, null, 2)}\n`,
  );

describe("the signed claim strength on the seal (issue 37 item 3)", () => {
  it("a seal without claim_strength (a runner before it) is byte for byte the seal.svg rendered before issue 37", () => {
    assert.equal(sha256Hex(makeSealFixture({}, FIXED_KEY).bundle.sealSvg), BEFORE_ISSUE_37);
    assert.equal(
      sha256Hex(makeSealFixture({ verify_url: "https://verify.example/seal" }, FIXED_KEY).bundle.sealSvg),
      BEFORE_ISSUE_37_WITH_URL,
    );
  });

  for (const claim of CLAIM_STRENGTHS) {
    it(`a ${claim} seal signs it, draws one more line at y 401 and nothing else differs, and verifies`, () => {
      const plain = makeSealFixture({}, FIXED_KEY).bundle;
      const { bundle, trusted } = makeSealFixture({ claim_strength: claim }, FIXED_KEY);
      assert.equal(bundle.payload.claim_strength, claim);
      assert.match(bundle.sealJson, new RegExp(`"claim_strength":"${claim}"`));
      const line = `<text x="240" y="401" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" font-weight="normal" fill="#1b2a4a">${CLAIM_LINE_LABELS[claim]}</text>`;
      const drawn = bundle.sealSvg.split("\n");
      const before = plain.sealSvg.split("\n");
      // the embedded payload lines (desc, payload, signature) differ; the drawing gains one line
      const unchanged = (lines: string[]) =>
        lines.filter((l) => !/^<desc>|^<svcseal:|^<path fill="#000"/.test(l));
      assert.deepEqual(
        unchanged(drawn).filter((l) => l !== line),
        unchanged(before),
      );
      assert.equal(drawn.filter((l) => l === line).length, 1);
      assert.equal(verifySealSvg(bundle.sealSvg, trusted).state, "VERIFIED");
    });
  }

  it("a payload whose claim is forged after signing fails the signature (SIGNATURE_INVALID)", () => {
    const { bundle, trusted } = makeSealFixture({ claim_strength: "HYPOTHESIS" }, FIXED_KEY);
    const forged = parseSealPayload({ ...bundle.payload, claim_strength: "SUPPORTED" });
    const signature = Buffer.from(bundle.sealSig, "base64");
    const result = verifySealSvg(renderSealSvg(forged, signature), trusted);
    assert.equal(result.reason_code, "SIGNATURE_INVALID");
  });

  it("refuses claim_strength on a v1 payload, and a value outside the vocabulary", () => {
    const { bundle, key } = makeSealFixture({ claim_strength: "SUPPORTED" });
    const { attestation: _a, ...v1 } = bundle.payload;
    assert.throws(() => parseSealPayload({ ...v1, seal_version: SEAL_VERSION }), /claim_strength/);
    assert.throws(() => parseSealPayload({ ...bundle.payload, claim_strength: "PROVEN" }), /claim_strength/);
    assert.throws(() =>
      renderSealSvg(
        { ...bundle.payload, claim_strength: "PARTIAL" },
        signBytes(key, canonicalBytes(bundle.payload)),
      ),
    );
  });

  it("run_complete accepts it optionally and refuses a value outside the vocabulary", () => {
    const hashes = {
      run_id: "run_20261121T101500Z",
      outputs_sha256: sha256Hex("o"),
      run_manifest_sha256: sha256Hex("m"),
    };
    assert.equal(runCompleteSchema.parse(hashes).claim_strength, undefined);
    assert.equal(
      runCompleteSchema.parse({ ...hashes, claim_strength: "HYPOTHESIS" }).claim_strength,
      "HYPOTHESIS",
    );
    assert.equal(runCompleteSchema.safeParse({ ...hashes, claim_strength: "SCREENING" }).success, false);
  });

  it("is worded for the CLI and the /verify page, and not at all for a seal without one", () => {
    assert.equal(describeClaimStrength(makeSealFixture().bundle.payload), null);
    assert.match(
      describeClaimStrength(makeSealFixture({ claim_strength: "HYPOTHESIS" }).bundle.payload) ?? "",
      /HYPOTHESIS.*claim reasons/,
    );
  });
});

describe("checkClaimStrength: results/summary.json against the signed claim strength (issue 37 item 3)", () => {
  const hypothesis = makeSealFixture({ claim_strength: "HYPOTHESIS" }).bundle.payload;

  it("checks nothing when the seal carries no claim strength (a runner before it)", () => {
    assert.equal(checkClaimStrength(makeSealFixture().bundle.payload, summary("SCREENING")), null);
    assert.equal(checkClaimStrength(makeSealFixture().bundle.payload, { kind: "absent" }), null);
  });

  it("passes a summary that states the signed value once, as the runner writes it", () => {
    const check = checkClaimStrength(hypothesis, summary("HYPOTHESIS"));
    assert.equal(check?.ok, true, check?.detail);
  });

  const refused: Record<string, ClaimSummary> = {
    "another value (SUPPORTED under a HYPOTHESIS seal)": summary("SUPPORTED"),
    "the field removed": file('{\n  "schema": "svc.summary/v2",\n  "claim_reasons": []\n}\n'),
    "two keys (JSON.parse keeps the last)": file(
      '{\n  "claim_strength": "SUPPORTED",\n  "claim_strength": "HYPOTHESIS"\n}\n',
    ),
    "an escaped duplicate key first": file(
      '{\n  "claim\\u005fstrength": "SUPPORTED",\n  "claim_strength": "HYPOTHESIS"\n}\n',
    ),
    "the only key escaped": file('{\n  "claim\\u005Fstrength": "HYPOTHESIS"\n}\n'),
    "an escaped value": file('{\n  "claim_strength": "HYPOTHESI\\u0053"\n}\n'),
    "the value on the next line": file('{\n  "claim_strength":\n    "HYPOTHESIS"\n}\n'),
    "a null value": summary(null),
    "nested below the top level": file('{\n  "tier": {\n    "claim_strength": "HYPOTHESIS"\n  }\n}\n'),
    "not JSON": file('  "claim_strength": "HYPOTHESIS",\n'),
    missing: { kind: "absent" },
    "over its cap": { kind: "too_large" },
  };
  for (const [name, read] of Object.entries(refused)) {
    it(`refuses ${name} with CLAIM_STRENGTH_MISMATCH`, () => {
      const check = checkClaimStrength(hypothesis, read);
      assert.equal(check?.ok, false);
      assert.equal(check?.code, "CLAIM_STRENGTH_MISMATCH", check?.detail);
    });
  }
});
