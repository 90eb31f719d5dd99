import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { methodCardMarkers, writeMethodCards } from "./method-card-markdown.ts";
import { IMPLEMENTED_MODULES } from "./registry.ts";

const docs = readFileSync(new URL("../../../docs/science.md", import.meta.url), "utf8");
const cards = new Map(IMPLEMENTED_MODULES.map((module) => [module.id, module.method]));

test("docs/science.md's generated method cards are the modules' own cards (node packages/science/scripts/write-science-docs.ts)", () => {
  assert.equal(writeMethodCards(docs, cards), docs);
});

test("at least the solubility card is generated, so its figures are the ones the code recomputes", () => {
  const { start } = methodCardMarkers("solubility_assessment");
  assert.ok(docs.includes(start));
});
