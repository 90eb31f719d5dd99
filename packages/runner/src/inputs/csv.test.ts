import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { makeTempDir, type TempDirOwner } from "@svc/testing";
import { CsvSyntaxError, detectDelimiter, readCsvRecords } from "./csv.ts";

async function parse(t: TempDirOwner, text: string) {
  const dir = await makeTempDir("svc-csv-", t);
  const path = join(dir, "a.csv");
  await writeFile(path, text);
  const out = [];
  for await (const record of readCsvRecords(path)) out.push(record);
  return out;
}

test("parses quoted fields, doubled quotes, CRLF and embedded newlines with start lines", async (t) => {
  const records = await parse(t, '\uFEFFa,b\r\n"x,1","say ""hi"""\r\n\r\n"multi\nline",z\nlast,\n');
  assert.deepEqual(records, [
    { line: 1, fields: ["a", "b"] },
    { line: 2, fields: ["x,1", 'say "hi"'] },
    { line: 4, fields: ["multi\nline", "z"] },
    { line: 6, fields: ["last", ""] },
  ]);
});

test("a file without a final newline yields its last record", async (t) => {
  assert.deepEqual(await parse(t, "a\n1"), [
    { line: 1, fields: ["a"] },
    { line: 2, fields: ["1"] },
  ]);
});

test("an unterminated quote is a syntax error naming the line", async (t) => {
  await assert.rejects(parse(t, 'a\n"open,1\n'), (error: unknown) => {
    assert.ok(error instanceof CsvSyntaxError);
    assert.equal(error.line, 2);
    return true;
  });
});

test("a stray quote inside an unquoted field is a syntax error", async (t) => {
  await assert.rejects(parse(t, 'a,b\nx"y,1\n'), CsvSyntaxError);
});

test("the delimiter is found from the header: comma, semicolon or tab, quotes respected", () => {
  assert.equal(detectDelimiter("candidate_id,smiles,name"), ",");
  assert.equal(detectDelimiter('candidate_id;smiles;"a,b"'), ";");
  assert.equal(detectDelimiter("ID\tSMILES\tName"), "\t");
  assert.equal(detectDelimiter("smiles"), ",");
});
