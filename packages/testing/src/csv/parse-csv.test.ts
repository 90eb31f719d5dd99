import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv } from "./parse-csv.ts";

test("quoted fields keep commas, doubled quotes and line ends; CRLF and LF both end a row", () => {
  assert.deepEqual(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",\n'), [
    ["a", "b"],
    ["x, y", 'say "hi"'],
    ["two\nlines", ""],
  ]);
});

test("a last row without its line end is kept", () => {
  assert.deepEqual(parseCsv("a,b\n1,2"), [
    ["a", "b"],
    ["1", "2"],
  ]);
});

test("a leading UTF-8 byte-order mark is dropped, as a spreadsheet drops it; one inside a field is kept", () => {
  assert.deepEqual(parseCsv("\uFEFFRank,Name\n1,\uFEFFx\n"), [
    ["Rank", "Name"],
    ["1", "\uFEFFx"],
  ]);
});
