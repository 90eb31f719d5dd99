import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkReleasedImage } from "./released-image-check.ts";
import { checkRunManifestFields } from "./run-manifest-fields-check.ts";
import { makeSealFixture } from "./seal-fixture.ts";

// Issue 23 item 5: what verification can cross-check of what the caller reported.
const { bundle } = makeSealFixture();
const seal = bundle.payload;
const manifest = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    schema: "svc.run-manifest/v1",
    run_id: seal.run_id,
    project_id: seal.project_id,
    mode: seal.mode,
    category_id: seal.category_id,
    entitlement: { principal: seal.principal },
    ...overrides,
  });

describe("checkRunManifestFields", () => {
  it("passes a manifest naming the signed principal, run, project, mode and category", () => {
    assert.equal(checkRunManifestFields(seal, manifest()).ok, true);
  });

  it("refuses another principal, run, project, mode or category with RUN_MANIFEST_MISMATCH, naming each", () => {
    const check = checkRunManifestFields(
      seal,
      manifest({ entitlement: { principal: "mallory@example.com" }, project_id: "other", mode: "deep" }),
    );
    assert.equal(check.ok, false);
    assert.equal(check.code, "RUN_MANIFEST_MISMATCH");
    assert.match(check.detail, /entitlement\.principal is "mallory@example\.com", the seal says runner@/);
    assert.match(check.detail, /project_id is "other"/);
    assert.match(check.detail, /mode is "deep"/);
    for (const field of ["run_id", "category_id"])
      assert.equal(checkRunManifestFields(seal, manifest({ [field]: "x" })).code, "RUN_MANIFEST_MISMATCH");
  });

  it("refuses a manifest that leaves a field out or is not a JSON object", () => {
    assert.match(checkRunManifestFields(seal, manifest({ entitlement: {} })).detail, /principal is missing/);
    assert.equal(checkRunManifestFields(seal, "not json").code, "RUN_MANIFEST_MISMATCH");
    assert.equal(checkRunManifestFields(seal, "[]").code, "RUN_MANIFEST_MISMATCH");
  });
});

describe("checkReleasedImage", () => {
  const released = `sha256:${"1".repeat(64)}`;
  it("checks nothing when the issuer publishes no list", () => {
    assert.equal(checkReleasedImage(seal, null, "https://issuer.example"), null);
  });

  it("passes a released digest and refuses another, or none, with IMAGE_NOT_RELEASED", () => {
    const withImage = (digest: string | null) => ({ image: { reference: "runner:1", digest } });
    assert.equal(checkReleasedImage(withImage(released), [released], "i")?.ok, true);
    assert.equal(
      checkReleasedImage(withImage(`sha256:${"2".repeat(64)}`), [released], "i")?.code,
      "IMAGE_NOT_RELEASED",
    );
    assert.equal(checkReleasedImage(withImage(null), [released], "i")?.code, "IMAGE_NOT_RELEASED");
  });
});
