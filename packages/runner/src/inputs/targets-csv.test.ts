import assert from "node:assert/strict";
import { test } from "node:test";
import { readTableFile, refusalOf } from "../../test/support/table-file.ts";
import { readTargetTable } from "./targets-csv.ts";

const table = (t: { after: (fn: () => unknown) => void }, text: string) =>
  readTableFile(t, "targets.csv", text, (path) => readTargetTable(path, "01_sources/targets.csv"));
const refusal = (t: { after: (fn: () => unknown) => void }, text: string) => refusalOf(() => table(t, text));

test("gene symbols, UniProt accessions and a mixed target column are read, with names and lines; other columns are ignored", async (t) => {
  const demo = await table(
    t,
    "target_symbol,uniprot_id,target_name,organism\nABL1,P00519,Tyrosine-protein kinase ABL1,Homo sapiens\nKCNH2,,hERG,Homo sapiens\n",
  );
  assert.deepEqual(demo, [
    { line: 2, gene_symbol: "ABL1", uniprot_id: "P00519", name: "Tyrosine-protein kinase ABL1" },
    { line: 3, gene_symbol: "KCNH2", uniprot_id: null, name: "hERG" },
  ]);
  const mixed = await table(t, "Target;Name\nQ12809;hERG\nHLA-A;\nA0A024R161;\n");
  assert.deepEqual(
    mixed.map((row) => [row.gene_symbol, row.uniprot_id, row.name]),
    [
      [null, "Q12809", "hERG"],
      ["HLA-A", null, null],
      [null, "A0A024R161", null],
    ],
  );
  const accessions = await table(t, "\ufeffUniProt\nP35367-2\n");
  assert.equal(accessions[0]?.uniprot_id, "P35367-2");
});

test("an unknown format, a missing identifier or a bad row is TARGETS_INVALID naming the file, line and column", async (t) => {
  const cases: [string, RegExp][] = [
    [
      "gene_symbol,uniprot_id\nABL1,P0051\n",
      /01_sources\/targets\.csv line 2, field uniprot_id: "P0051" is not a UniProt accession/,
    ],
    [
      "gene_symbol,name\nABL1,x\nbeta 2 adrenergic,y\n",
      /line 3, field gene_symbol: "beta 2 adrenergic" is not a gene symbol/,
    ],
    [
      "target\nABL1\n5-HT2A receptor\n",
      /line 3, field target: "5-HT2A receptor" is neither a gene symbol nor a UniProt accession/,
    ],
    [
      "gene_symbol,uniprot_id,name\n,,orphan\n",
      /line 2, field gene_symbol \/ uniprot_id: no target identifier/,
    ],
    ["gene_symbol,name\nABL1\n", /line 2: 1 fields, the header has 2/],
    ["name,organism\nABL1,human\n", /line 1: no target column: "gene_symbol"/],
    ["gene_symbol,Gene Symbol\nA,B\n", /line 1, field gene_symbol: column appears twice/],
    ["gene_symbol\n", /no data rows after the header/],
    ["", /the file is empty \(0 bytes\)/],
    ['gene_symbol\n"ABL1\n', /line 2: /],
  ];
  for (const [text, message] of cases) {
    const error = await refusal(t, text);
    assert.equal(error.code, "TARGETS_INVALID", text);
    assert.match(error.message, message, text);
  }
});
