import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readLines } from "./read-lines.ts";

test("lines come back without their LF or CRLF, a BOM dropped, a last line without newline kept", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "read-lines-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "a.txt");
  // Long lines cross the 64 KiB chunk boundary, including inside a multi-byte character.
  const long = "é".repeat(70_000);
  await writeFile(path, `\uFEFFone\r\n${long}\n\nthree`);
  const lines: string[] = [];
  for await (const line of readLines(path)) lines.push(line);
  assert.deepEqual(lines, ["one", long, "", "three"]);
});
