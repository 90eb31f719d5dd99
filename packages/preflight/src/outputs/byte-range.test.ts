import assert from "node:assert/strict";
import { test } from "node:test";
import { parseByteRange } from "./byte-range.ts";

test("single byte ranges are clamped to the file (RFC 9110 §14.1.2)", () => {
  assert.deepEqual(parseByteRange("bytes=0-9", 100), { start: 0, end: 9 });
  assert.deepEqual(parseByteRange("bytes=90-", 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange("bytes=90-500", 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange("bytes=-10", 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange("bytes=-500", 100), { start: 0, end: 99 });
});

test("ranges starting past the end, empty suffixes and any range of an empty file are unsatisfiable", () => {
  assert.equal(parseByteRange("bytes=100-", 100), "unsatisfiable");
  assert.equal(parseByteRange("bytes=-0", 100), "unsatisfiable");
  assert.equal(parseByteRange("bytes=0-", 0), "unsatisfiable");
});

test("absent, malformed, inverted and multi-range headers fall back to the whole file", () => {
  for (const header of [
    undefined,
    "bytes=",
    "bytes=-",
    "items=0-1",
    "bytes=5-1",
    "bytes=0-1,4-5",
    "bytes=a-b",
  ])
    assert.equal(parseByteRange(header, 100), "none", String(header));
});
