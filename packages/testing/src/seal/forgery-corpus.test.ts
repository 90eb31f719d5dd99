import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toTrustedKey, verifySealSvg } from "@svc/core";
import { buildForgeryCorpus } from "./forgery-corpus.ts";
import { issueCorpusSeals, prettyPrintSeal } from "./genuine-seals.ts";

const { genuine, decoy, key } = issueCorpusSeals();
const trusted = [toTrustedKey(key.publicKey)];
const corpus = buildForgeryCorpus({ genuine: genuine.sealSvg, decoy: decoy.sealSvg });

describe("forgery corpus (issue 9)", () => {
  it("holds at least 60 forgeries, every attack family of the issue, each a distinct file", () => {
    assert.ok(corpus.length >= 60, `${corpus.length} forgeries`);
    assert.deepEqual(new Set(corpus.map((forgery) => forgery.family)).size, 6);
    assert.equal(new Set(corpus.map((forgery) => forgery.svg)).size, corpus.length);
    assert.equal(new Set(corpus.map((forgery) => forgery.name)).size, corpus.length);
  });

  it("the genuine seal it is built from verifies, fresh and pretty-printed", () => {
    assert.equal(verifySealSvg(genuine.sealSvg, trusted).state, "VERIFIED");
    const pretty = verifySealSvg(prettyPrintSeal(genuine.sealSvg), trusted);
    assert.equal(pretty.state, "VERIFIED", pretty.reason);
  });

  for (const forgery of corpus) {
    it(`${forgery.family}: ${forgery.name} is INVALID (${forgery.code})`, () => {
      const result = verifySealSvg(forgery.svg, trusted);
      assert.equal(result.state, "INVALID", result.reason);
      assert.equal(result.reason_code, forgery.code, result.reason);
      if (forgery.code === "IMAGE_NOT_CANONICAL") {
        // The reason names the first difference: an element path and what differs.
        assert.match(result.reason, /canonical_image: (\/svg\[1\][^:]*|\(document\)|\S+): \S/);
      }
    });
  }
});
