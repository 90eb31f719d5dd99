import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { JsonArrayWriter } from "./json-array-writer.ts";

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "json-array-writer-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test("a streamed document parses to the same value as the object written at once", async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, "doc.json");
  const writer = await JsonArrayWriter.open(path, { schema: "x/v1", run: "r" }, ["result", "items"]);
  for (const item of [{ a: 1 }, { a: "two" }, null]) await writer.push(item);
  await writer.close([{ summary: { n: 3 } }, { evidence_ids: ["e"] }]);
  assert.deepEqual(JSON.parse(await readFile(path, "utf8")), {
    schema: "x/v1",
    run: "r",
    result: { items: [{ a: 1 }, { a: "two" }, null], summary: { n: 3 } },
    evidence_ids: ["e"],
  });
});

test("an empty array and empty head and tails still give valid JSON", async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, "empty.json");
  const writer = await JsonArrayWriter.open(path, {}, ["items"]);
  await writer.close();
  assert.deepEqual(JSON.parse(await readFile(path, "utf8")), { items: [] });
});

test("an aborted document leaves no file behind, not even its temp file", async (t) => {
  const dir = await tempDir(t);
  const writer = await JsonArrayWriter.open(join(dir, "gone.json"), { a: 1 }, ["items"]);
  await writer.push({ b: 2 });
  await writer.abort();
  assert.deepEqual(await readdir(dir), []);
});
