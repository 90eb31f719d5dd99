import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalBytes } from "../canonical-json.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { parseSealPayload } from "./seal-payload.ts";
import { verifySealSvg } from "./verify-seal-svg.ts";

const origin = "seal_ffffffffffffffffffffffffffffffff";

describe("seal payload funding (issue 16)", () => {
  it("signs funding rerun with its origin seal, and the seal verifies", () => {
    const { bundle, trusted } = makeSealFixture({ funding: "rerun", rerun_of: origin });
    assert.equal(bundle.payload.funding, "rerun");
    assert.match(bundle.sealJson, /"funding":"rerun"/);
    assert.match(bundle.sealJson, new RegExp(`"rerun_of":"${origin}"`));
    assert.equal(verifySealSvg(bundle.sealSvg, trusted).state, "VERIFIED");
  });

  it("leaves a purchased run's payload without the fields, so older seals keep their bytes", () => {
    const { bundle } = makeSealFixture();
    assert.equal("funding" in bundle.payload, false);
    assert.equal(bundle.sealJson, canonicalBytes(bundle.payload).toString("utf8"));
    assert.doesNotMatch(bundle.sealJson, /funding|rerun_of/);
  });

  it("refuses funding without its origin, an origin without funding, and any other funding", () => {
    const { bundle } = makeSealFixture();
    const base = { ...bundle.payload };
    assert.throws(() => parseSealPayload({ ...base, funding: "rerun" }), /rerun_of/);
    assert.throws(() => parseSealPayload({ ...base, rerun_of: origin }), /rerun_of/);
    assert.throws(() => parseSealPayload({ ...base, funding: "free", rerun_of: origin }), /funding/);
  });
});
