import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "../temp/temp-dir.ts";
import {
  assertGeneratedBlock,
  findGeneratedBlocks,
  generatedBlockMarkers,
  replaceGeneratedBlock,
  textOutsideGeneratedBlocks,
  UPDATE_DOCS_ENV,
} from "./generated-block.ts";

const SOURCE = "packages/x/src/x.test.ts";
const { begin, end } = generatedBlockMarkers("table", SOURCE);
const doc = `# Title\n\nHand text.\n\n${begin}\n| a |\n|---|\n| 1 |\n${end}\n\nMore text.\n`;

describe("generated blocks of a markdown file (one convention for every generated figure)", () => {
  it("finds a block by its markers, with the test that renders it and its body", () => {
    const [block] = findGeneratedBlocks(doc);
    assert.equal(block?.name, "table");
    assert.equal(block?.source, SOURCE);
    assert.equal(block?.body, "| a |\n|---|\n| 1 |");
    assert.equal(textOutsideGeneratedBlocks(doc), "# Title\n\nHand text.\n\n\n\nMore text.\n");
  });

  it("replaces only the block's body and refuses a block that is not there", () => {
    const next = replaceGeneratedBlock(doc, "table", SOURCE, "| a |\n|---|\n| 2 |\n");
    assert.equal(next, doc.replace("| 1 |", "| 2 |"));
    assert.throws(() => replaceGeneratedBlock(doc, "other", SOURCE, "x"), /no generated block other/);
  });

  it("refuses a BEGIN without its END", () => {
    assert.throws(() => findGeneratedBlocks(`${begin}\nbody\n`), /no "<!-- END GENERATED: table -->"/);
  });

  it(`fails on a stale block, and with ${UPDATE_DOCS_ENV}=1 rewrites it instead`, async (t) => {
    const file = join(await makeTempDir("generated-block-", t), "doc.md");
    writeFileSync(file, doc);
    assertGeneratedBlock(file, "table", SOURCE, "| a |\n|---|\n| 1 |");
    assert.throws(() => assertGeneratedBlock(file, "table", SOURCE, "| a |\n|---|\n| 2 |"), /is stale/);
    const before = process.env[UPDATE_DOCS_ENV];
    process.env[UPDATE_DOCS_ENV] = "1";
    try {
      assertGeneratedBlock(file, "table", SOURCE, "| a |\n|---|\n| 2 |");
    } finally {
      if (before === undefined) delete process.env[UPDATE_DOCS_ENV];
      else process.env[UPDATE_DOCS_ENV] = before;
    }
    assert.equal(readFileSync(file, "utf8"), doc.replace("| 1 |", "| 2 |"));
  });
});
