import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalBytes } from "../canonical-json.ts";
import { signBytes } from "../keys.ts";
import { renderSealSvg } from "./render-seal-svg.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { parseSealPayload, SEAL_VERSION } from "./seal-payload.ts";
import { verifyInstructions } from "./verify-instructions.ts";
import { verifySealSvg } from "./verify-seal-svg.ts";

// Issue 23 item 5: the signed payload says what the seal attests (svc.seal/v2, attestation
// job_reported), the picture and VERIFY.md say it too, and a v1 seal issued before still verifies.
describe("the seal's attestation level", () => {
  const { bundle, key, trusted } = makeSealFixture();

  it("is signed in every seal issued now: svc.seal/v2 with attestation job_reported, drawn on the seal", () => {
    assert.equal(bundle.payload.seal_version, "svc.seal/v2");
    assert.equal(bundle.payload.attestation, "job_reported");
    assert.match(bundle.sealSvg, />attests: hashes the job reported</);
    assert.equal(verifySealSvg(bundle.sealSvg, trusted).state, "VERIFIED");
  });

  it("VERIFY.md says the principal's job reported the hashes and the issuer did not observe the computation", () => {
    const text = verifyInstructions(bundle.payload);
    assert.match(text, /reported to the issuer/);
    assert.match(text, /The issuer did not observe the computation/);
    assert.match(text, /What an offline check cannot exclude/);
  });

  it("a v1 seal issued before (no attestation) still verifies, drawn exactly as it was", () => {
    const { seal_version: _v, attestation: _a, ...rest } = bundle.payload;
    const v1 = parseSealPayload({ ...rest, seal_version: SEAL_VERSION });
    const svg = renderSealSvg(v1, signBytes(key, canonicalBytes(v1)));
    assert.doesNotMatch(svg, /attests:/);
    const result = verifySealSvg(svg, trusted);
    assert.equal(result.state, "VERIFIED");
    assert.equal(result.payload?.seal_version, "svc.seal/v1");
  });

  it("refuses a v2 payload without attestation and a v1 payload with one", () => {
    const { attestation: _a, ...withoutAttestation } = bundle.payload;
    assert.throws(() => parseSealPayload(withoutAttestation), /attestation/);
    assert.throws(() => parseSealPayload({ ...bundle.payload, seal_version: SEAL_VERSION }), /attestation/);
    assert.throws(() => parseSealPayload({ ...bundle.payload, attestation: "observed" }), /attestation/);
  });
});
