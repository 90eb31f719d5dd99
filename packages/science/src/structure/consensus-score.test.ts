import assert from "node:assert/strict";
import { test } from "node:test";
import { consensusScore } from "./consensus-score.ts";

test("the consensus is the mean of the scorers that gave a score, with their spread and names", () => {
  assert.deepEqual(consensusScore({ vina: -7.2, vinardo: -6.6, ad4: -8.1 }), {
    consensus: -7.3,
    spread: 1.5,
    scorersUsed: ["vina", "vinardo", "ad4"],
  });
});

test("a scorer without a score is left out of the consensus and named as not used", () => {
  assert.deepEqual(consensusScore({ vina: -5, vinardo: -4, ad4: null }), {
    consensus: -4.5,
    spread: 1,
    scorersUsed: ["vina", "vinardo"],
  });
});
