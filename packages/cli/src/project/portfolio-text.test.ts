import assert from "node:assert/strict";
import { test } from "node:test";
import { csvField, parseSmiText, splitCsvHeader, splitSdText } from "./portfolio-text.ts";

test("a SMILES file gives SMILES, id and name per line; a title line, blanks and comments are skipped", () => {
  assert.deepEqual(parseSmiText("SMILES ID\nCCO 1 ethanol, absolute\n\n# note\nc1ccccc1\n"), [
    { smiles: "CCO", id: "1", name: "ethanol, absolute" },
    { smiles: "c1ccccc1", id: "row_2", name: "" },
  ]);
});

test("CSV fields are quoted only when RFC 4180 needs it, and headers split with quotes honoured", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('say "hi", twice'), '"say ""hi"", twice"');
  assert.deepEqual(splitCsvHeader('ID,"potency, nM","a ""b"""'), ["ID", "potency, nM", 'a "b"']);
});

test("an SD file splits into molblocks with title and data items; a chunk without M  END is counted, not dropped silently", () => {
  const molblock =
    "mol-a\n  RDKit\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END";
  const text = `${molblock}\n>  <compound_id>  (1)\nC-1\n\n>  <assay>\nx\n\n$$$$\nnot a record\n$$$$\n`;
  const { records, malformed } = splitSdText(text);
  assert.equal(malformed, 1);
  assert.equal(records.length, 1);
  assert.equal(records[0]?.title, "mol-a");
  assert.ok(records[0]?.molblock.endsWith("M  END"));
  assert.deepEqual(records[0]?.data, { compound_id: "C-1", assay: "x" });
});
