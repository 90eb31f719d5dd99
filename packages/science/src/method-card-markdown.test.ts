import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { assertGeneratedBlock, findGeneratedBlocks } from "@svc/testing";
import { methodCardBlockName, methodCardMarkdown } from "./method-card-markdown.ts";
import { IMPLEMENTED_MODULES } from "./registry.ts";

const DOCS = new URL("../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/method-card-markdown.test.ts";
const cardBlocks = findGeneratedBlocks(readFileSync(DOCS, "utf8")).filter((b) =>
  b.name.startsWith("method-card:"),
);

for (const block of cardBlocks) {
  test(`docs/science.md's ${block.name} is the module's own card (UPDATE_SCIENCE_DOCS=1 rewrites it)`, () => {
    const module = IMPLEMENTED_MODULES.find((m) => methodCardBlockName(m.id) === block.name);
    assert.ok(module, `${block.name} names no implemented module`);
    assertGeneratedBlock(DOCS, block.name, SOURCE, methodCardMarkdown(module.method));
  });
}

test("at least the solubility and uncertainty cards are generated, so their figures are the ones the code recomputes", () => {
  const names = cardBlocks.map((b) => b.name);
  assert.ok(names.includes(methodCardBlockName("solubility_assessment")));
  assert.ok(names.includes(methodCardBlockName("uncertainty_quantification")));
});
