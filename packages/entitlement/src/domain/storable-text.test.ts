import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeUnstorableText, findUnstorableText } from "./storable-text.ts";

describe("storable text", () => {
  it("accepts ordinary text, including non-ASCII in NFC", () => {
    for (const value of ["alice", "order 42", "Müller", "東京", ""])
      assert.equal(describeUnstorableText(value), null);
  });

  it("refuses NUL and other C0 controls, DEL, lone surrogates and non-NFC text", () => {
    assert.match(describeUnstorableText("a\u0000b") ?? "", /U\+0000/);
    assert.match(describeUnstorableText("line\nbreak") ?? "", /U\+000A/);
    assert.match(describeUnstorableText("del\u007f") ?? "", /U\+007F/);
    assert.match(describeUnstorableText("\ud800") ?? "", /lone UTF-16 surrogate/);
    assert.match(describeUnstorableText("Mu\u0308ller") ?? "", /NFC/);
  });

  it("names the path of every offending string in a body", () => {
    assert.deepEqual(findUnstorableText({ a: "ok", image: { reference: "x\u0000" }, list: ["\udc00"] }), [
      "field image.reference: contains control character U+0000",
      "field list.0: contains a lone UTF-16 surrogate (not valid Unicode text)",
    ]);
  });
});
