// Rewrites the generated method cards of docs/science.md from the modules' own method cards
// (issue 24 item 7: no hand-typed figure). The test method-card-markdown.test.ts fails when the
// checked-in file differs. Run: node packages/science/scripts/write-science-docs.ts
import { readFileSync, writeFileSync } from "node:fs";
import { writeMethodCards } from "../src/method-card-markdown.ts";
import { IMPLEMENTED_MODULES } from "../src/registry.ts";

const path = new URL("../../../docs/science.md", import.meta.url);
const docs = readFileSync(path, "utf8");
const next = writeMethodCards(docs, new Map(IMPLEMENTED_MODULES.map((module) => [module.id, module.method])));
writeFileSync(path, next);
console.log(next === docs ? "docs/science.md: unchanged" : "docs/science.md: method cards rewritten");
