import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateSigningKey, toTrustedKey, verifySealSvg } from "@svc/core";
import {
  fabricatePreseal,
  forgeForAnotherIssuer,
  forgeUnderIssuedSealId,
  forgeWithRetiredKey,
} from "./issuer-forgeries.ts";

// What each issuer-trust forgery of issue 23 looks like offline: the online surfaces' tests
// (entitlement test/verify-fails-closed-browser.e2e.test.ts) refuse them with `online`.
describe("the issuer-trust forgeries (issue 23 items 6, 7, 8; issue 38 item 1)", () => {
  it("a retired-key seal back-dated into the key's window passes every offline check: only the issuer refuses it", () => {
    const { forgery, retiredKey } = forgeWithRetiredKey("https://issuer.example");
    assert.equal(verifySealSvg(forgery.svg, [retiredKey]).state, "VERIFIED");
    assert.deepEqual(forgery.online, { state: "NOT_ISSUED_HERE", code: "NOT_ISSUED_HERE" });
  });

  it("a retired-key seal under an issued seal id passes every offline check with that id: only the issuer's recorded seal refuses it (issue 38 item 1)", () => {
    const issuedId = `seal_${"a".repeat(32)}`;
    const { forgery, retiredKey, bundle } = forgeUnderIssuedSealId("https://issuer.example", issuedId);
    const offline = verifySealSvg(forgery.svg, [retiredKey]);
    assert.equal(offline.state, "VERIFIED");
    assert.equal(bundle.payload.seal_id, issuedId);
    assert.deepEqual(forgery.online, { state: "ISSUED_SEAL_MISMATCH", code: "ISSUED_SEAL_MISMATCH" });
  });

  it("issuer B's seal naming issuer A is INVALID (ISSUER_MISMATCH) for B's key pinned for B", () => {
    const signer = generateSigningKey();
    const { forgery } = forgeForAnotherIssuer("https://issuer-a.example", signer);
    const pinned = { ...toTrustedKey(signer.publicKey), issuer: "https://issuer-b.example" };
    const result = verifySealSvg(forgery.svg, [pinned]);
    assert.equal(`${result.state} ${result.reason_code}`, "INVALID ISSUER_MISMATCH");
  });

  it("a pre-seal made with no key is PRESEAL_UNSIGNED, never VERIFIED", () => {
    const forgery = fabricatePreseal({ outputs_sha256: "f".repeat(64) });
    const result = verifySealSvg(forgery.svg, []);
    assert.equal(`${result.state} ${result.reason_code}`, "PRESEAL_UNSIGNED PRESEAL_UNSIGNED");
  });
});
