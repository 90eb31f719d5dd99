import assert from "node:assert/strict";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { RunnerError } from "../runner-error.ts";
import { assertTextInput } from "./assert-text-input.ts";
import { formatBytes, PORTFOLIO_MAX_BYTES, sniffInputFile } from "./input-file-limits.ts";

async function file(t: { after: (fn: () => Promise<void>) => void }, content: string | Buffer) {
  const dir = await mkdtemp(join(tmpdir(), "input-limits-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "f.csv");
  await writeFile(path, content);
  return path;
}

test("a file is empty, binary or text from its first 64 KiB; UTF-8 text with a BOM, tabs and CRLF is text", async (t) => {
  assert.deepEqual(await sniffInputFile(await file(t, "")), { kind: "empty", size: 0 });
  assert.deepEqual(await sniffInputFile(await file(t, "\uFEFF \r\n\t\n")), { kind: "empty", size: 8 });
  assert.deepEqual(await sniffInputFile(await file(t, "smiles,name\r\nCCO,\tµM ≥ 5 Å\r\n")), {
    kind: "text",
    size: Buffer.byteLength("smiles,name\r\nCCO,\tµM ≥ 5 Å\r\n"),
  });
  assert.deepEqual(await sniffInputFile(await file(t, Buffer.from([0x73, 0, 0x61]))), {
    kind: "binary",
    size: 3,
    why: "a NUL byte",
  });
  assert.equal((await sniffInputFile(await file(t, "smiles\n\x1b[2J"))).kind, "binary");
  // Latin-1 "µ" (0xB5) alone is not UTF-8.
  assert.deepEqual(await sniffInputFile(await file(t, Buffer.from("IC50 (\xb5M)\n", "latin1"))), {
    kind: "binary",
    size: 10,
    why: "bytes that are not UTF-8 text",
  });
});

test("a UTF-8 character cut at the 64 KiB boundary of a longer file is still text", async (t) => {
  const text = `${"a".repeat(64 * 1024 - 1)}µ and more\n`;
  assert.equal((await sniffInputFile(await file(t, text))).kind, "text");
});

test("a file larger than the limit is refused with the reason, without reading it", async (t) => {
  const path = await file(t, "smiles\n");
  await truncate(path, PORTFOLIO_MAX_BYTES + 1); // sparse: no 512 MiB written
  await assert.rejects(
    assertTextInput(path, "01_sources/f.csv", "CSV_INVALID", { bytes: PORTFOLIO_MAX_BYTES, reason: "why" }),
    (error: RunnerError) =>
      error.code === "CSV_INVALID" &&
      error.message === "01_sources/f.csv: 512.0 MiB, larger than 512.0 MiB: why",
  );
  assert.equal(formatBytes(2048), "2.0 KiB");
});
