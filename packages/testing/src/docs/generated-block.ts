import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";

/**
 * The one environment variable that lets a test rewrite the generated block it owns instead of
 * failing on a stale one (issue 24 item 7: one convention for every generated figure of the docs).
 */
export const UPDATE_DOCS_ENV = "UPDATE_SCIENCE_DOCS";

/** One generated block of a markdown file: its name, the file that regenerates it, and its body. */
export interface GeneratedBlock {
  readonly name: string;
  readonly source: string;
  readonly body: string;
  /** Offset of the BEGIN marker and just past the END marker. */
  readonly start: number;
  readonly end: number;
}

const BEGIN = /<!-- BEGIN GENERATED: (\S+) \(([^)]+)\) -->/g;

/** The markers around a generated block: `source` is the repository path of the test (or script) that writes it. */
export function generatedBlockMarkers(
  name: string,
  source: string,
): { readonly begin: string; readonly end: string } {
  return { begin: `<!-- BEGIN GENERATED: ${name} (${source}) -->`, end: `<!-- END GENERATED: ${name} -->` };
}

/** Every generated block of `doc`, in order; throws on a BEGIN without its END or a name used twice. */
export function findGeneratedBlocks(doc: string): GeneratedBlock[] {
  const blocks: GeneratedBlock[] = [];
  for (const match of doc.matchAll(BEGIN)) {
    const [begin, name = "", source = ""] = match;
    const { end } = generatedBlockMarkers(name, source);
    const bodyStart = (match.index ?? 0) + begin.length;
    const endAt = doc.indexOf(end, bodyStart);
    if (endAt < 0) throw new Error(`generated block ${name}: no "${end}"`);
    if (blocks.some((b) => b.name === name)) throw new Error(`generated block ${name} appears twice`);
    const previous = blocks.at(-1);
    if (previous !== undefined && previous.end > (match.index ?? 0))
      throw new Error(`generated block ${name} starts inside ${previous.name}`);
    blocks.push({
      name,
      source,
      body: doc.slice(bodyStart, endAt).replace(/^\n/, "").replace(/\n$/, ""),
      start: match.index ?? 0,
      end: endAt + end.length,
    });
  }
  return blocks;
}

/** `doc` with every generated block (markers included) cut out: the hand-written text. */
export function textOutsideGeneratedBlocks(doc: string): string {
  let out = "";
  let at = 0;
  for (const block of findGeneratedBlocks(doc)) {
    out += doc.slice(at, block.start);
    at = block.end;
  }
  return out + doc.slice(at);
}

/** `doc` with block `name`'s body replaced by `body` (markers rewritten with `source`); throws when absent. */
export function replaceGeneratedBlock(doc: string, name: string, source: string, body: string): string {
  const block = findGeneratedBlocks(doc).find((b) => b.name === name);
  if (block === undefined)
    throw new Error(`no generated block ${name}: add its two markers where it belongs`);
  const { begin, end } = generatedBlockMarkers(name, source);
  return `${doc.slice(0, block.start)}${begin}\n${body.replace(/\n+$/, "")}\n${end}${doc.slice(block.end)}`;
}

/**
 * The check every generating test makes: the file's block `name` equals `body`. With
 * `UPDATE_SCIENCE_DOCS=1` a differing block is rewritten instead (the test then passes).
 */
export function assertGeneratedBlock(file: string | URL, name: string, source: string, body: string): void {
  const doc = readFileSync(file, "utf8");
  const expected = replaceGeneratedBlock(doc, name, source, body);
  if (expected === doc) return;
  if (process.env[UPDATE_DOCS_ENV] === "1") {
    writeFileSync(file, expected);
    return;
  }
  const current = findGeneratedBlocks(doc).find((b) => b.name === name);
  assert.equal(
    current?.body,
    body.replace(/\n+$/, ""),
    `generated block ${name} is stale: ${UPDATE_DOCS_ENV}=1 node --test ${source} (or node packages/science/scripts/write-science-docs.ts)`,
  );
  assert.fail(`generated block ${name}: markers differ from ${generatedBlockMarkers(name, source).begin}`);
}
