import assert from "node:assert/strict";
import { test } from "node:test";
import { readTableFile, refusalOf } from "../../test/support/table-file.ts";
import type { RunnerError } from "../runner-error.ts";
import { assertAssayCandidatesKnown, readAssayTable } from "./assays-csv.ts";

const table = (t: { after: (fn: () => unknown) => void }, text: string) =>
  readTableFile(t, "assays.csv", text, (path) => readAssayTable(path, "01_sources/assays.csv"));
const refusal = (t: { after: (fn: () => unknown) => void }, text: string) => refusalOf(() => table(t, text));

test("p values, pchembl_value and value + unit all become p = −log10(molar); replicates are averaged", async (t) => {
  const pTable = await table(
    t,
    "Candidate_ID,Assay_ID,p_activity\nA,kinase,6.0\nA,kinase,7.0\nB,kinase,5.5\n",
  );
  assert.deepEqual(Object.fromEntries(pTable.activities), { A: { kinase: 6.5 }, B: { kinase: 5.5 } });
  assert.equal(pTable.rowCount, 3);

  // A ChEMBL export's header with spaces, semicolon-separated.
  const chembl = await table(t, "Compound_ID;pChEMBL Value\nA;7.25\n");
  assert.deepEqual(chembl.activities.get("A"), { assay: 7.25 });

  const units = await table(
    t,
    "compound_id\tassay\tvalue\tunit\nA\tx\t100\tnM\nB\tx\t1\tµM\nC\tx\t1\tμM\nD\tx\t2\tmM\nE\tx\t0.001\tM\nF\tx\t10\tuM\n",
  );
  assert.deepEqual(Object.fromEntries(units.activities), {
    A: { x: 7 },
    B: { x: 6 },
    C: { x: 6 },
    D: { x: 2.699 },
    E: { x: 3 },
    F: { x: 5 },
  });
  assert.deepEqual(units.assayIds, ["x"]);
});

test("a bad value, unit or id is ASSAYS_INVALID naming the file, line and field", async (t) => {
  const header = "candidate_id,assay_id,value,unit\n";
  const cases: [string, RegExp][] = [
    [
      `${header}A,x,12,nM\nB,x,abc,nM\n`,
      /01_sources\/assays\.csv line 3, field value: "abc" is not a number/,
    ],
    [`${header}A,x,-5,nM\n`, /line 2, field value: -5 is not positive/],
    [`${header}A,x,0,nM\n`, /line 2, field value: 0 is not positive/],
    [`${header}A,x,5,ppm\n`, /line 2, field unit: unknown unit "ppm"/],
    [`${header}A,x,5,\n`, /line 2, field unit: no unit/],
    [`${header},x,5,nM\n`, /line 2, field candidate_id: empty candidate id/],
    [`${header}A,x,,nM\n`, /none of its 1 data rows has a value/],
    ["candidate_id,p_activity\nA,-1\n", /line 2, field p_activity: -1 is not positive/],
    ["candidate_id,smiles\nA,CCO\n", /line 1: no activity column/],
    ["assay_id,p_activity\nx,5\n", /line 1: no "candidate_id" column/],
    ["candidate_id,value\nA,5\n", /line 1: a "value" column needs a "unit" column/],
    ["candidate_id,p_activity\nA,5,6\n", /line 2: 3 fields, the header has 2/],
    ["candidate_id,p_activity\n", /no data rows/],
  ];
  for (const [text, message] of cases) {
    const error = await refusal(t, text);
    assert.equal(error.code, "ASSAYS_INVALID", text);
    assert.match(error.message, message, text);
    assert.equal(error.exitCode, 2);
  }
});

test("candidate ids absent from the portfolio are ASSAY_CANDIDATE_UNKNOWN with their lines", async (t) => {
  const assays = await table(t, "candidate_id,p_activity\nA,5\nZ,6\nA,7\nY,4\n");
  assert.doesNotThrow(() => assertAssayCandidatesKnown(assays, "f", () => true));
  assert.throws(
    () => assertAssayCandidatesKnown(assays, "01_sources/assays.csv", (id) => id === "A"),
    (error: RunnerError) =>
      error.code === "ASSAY_CANDIDATE_UNKNOWN" &&
      error.message ===
        '01_sources/assays.csv: 2 candidate id(s) not in the portfolio: line 3, field candidate_id: "Z"; line 5, field candidate_id: "Y"',
  );
});

test("chemists' headers are read: ChEMBL's export columns, a unit in the header, synonyms of the id", async (t) => {
  const chembl = await table(
    t,
    "Molecule ChEMBL ID;Assay ChEMBL ID;Standard Relation;Standard Value;Standard Units\n" +
      "CHEMBL1;CHEMBL9;'=';100;nM\nCHEMBL2;CHEMBL9;'>';10000;nM\n",
  );
  assert.deepEqual(chembl.columns, {
    id: "Molecule ChEMBL ID",
    assay: "Assay ChEMBL ID",
    p: null,
    value: "Standard Value",
    unit: "Standard Units",
    relation: "Standard Relation",
  });
  assert.deepEqual(chembl.values.get("CHEMBL1"), {
    CHEMBL9: { p: 7, relation: "=", rows: 1, censoredIgnored: 0 },
  });
  // IC50 > 10 µM is pActivity < 5: the relation is written in p terms.
  assert.deepEqual(chembl.values.get("CHEMBL2"), {
    CHEMBL9: { p: 5, relation: "<", rows: 1, censoredIgnored: 0 },
  });

  const ic50 = await table(t, "Compound ID,IC50 (nM)\nMTX,1.2\nIBU,>100000\n");
  assert.equal(ic50.columns.value, "IC50 (nM)");
  assert.equal(ic50.values.get("MTX")?.assay?.p, 8.9208);
  assert.deepEqual(ic50.values.get("IBU")?.assay, { p: 4, relation: "<", rows: 1, censoredIgnored: 0 });
});

test("censored values keep their qualifier in p terms: >, <, ≥, ≤ leading the number or in a relation column", async (t) => {
  const text =
    "candidate_id,assay_id,value,unit\nA,x,>10000,nM\nB,x,<1,nM\nC,x,≥ 10,uM\nD,x,≤10,uM\nE,x,~100,nM\n" +
    "F,pic,,\n";
  const qualified = await table(t, text.replace("F,pic,,\n", ""));
  const relation = (id: string) => qualified.values.get(id)?.x;
  assert.deepEqual(relation("A"), { p: 5, relation: "<", rows: 1, censoredIgnored: 0 });
  assert.deepEqual(relation("B"), { p: 9, relation: ">", rows: 1, censoredIgnored: 0 });
  assert.deepEqual(relation("C"), { p: 5, relation: "<=", rows: 1, censoredIgnored: 0 });
  assert.deepEqual(relation("D"), { p: 5, relation: ">=", rows: 1, censoredIgnored: 0 });
  assert.deepEqual(relation("E"), { p: 7, relation: "=", rows: 1, censoredIgnored: 0 });
  assert.equal(qualified.censoredRows, 4);
  // A bound is no measurement to regress on: the models receive the exact value only.
  assert.deepEqual([...qualified.activities.keys()], ["E"]);

  // A relation on a p value is already in p terms.
  const p = await table(t, "candidate_id,relation,pIC50\nA,<,4\nB,>=,9\n");
  assert.deepEqual(p.values.get("A")?.assay, { p: 4, relation: "<", rows: 1, censoredIgnored: 0 });
  assert.deepEqual(p.values.get("B")?.assay, { p: 9, relation: ">=", rows: 1, censoredIgnored: 0 });
});

test("a censored value is never averaged with exact ones; censored only keeps the tightest bound", async (t) => {
  const rows =
    "candidate_id,p_activity\n" +
    "A,6\nA,7\nA,<5\n" + // exact rows averaged, the bound left out and counted
    "B,<5\nB,<4\n" + // upper bounds: the lowest
    "C,>6\nC,>7\nC,>=7\n" + // lower bounds: the highest, the strict one on a tie
    "D,<8\nD,>6\n"; // both kinds: the lower bound, the potency the data guarantee
  const assays = await table(t, rows);
  assert.deepEqual(assays.values.get("A")?.assay, { p: 6.5, relation: "=", rows: 2, censoredIgnored: 1 });
  assert.deepEqual(assays.values.get("B")?.assay, { p: 4, relation: "<", rows: 2, censoredIgnored: 0 });
  assert.deepEqual(assays.values.get("C")?.assay, { p: 7, relation: ">", rows: 3, censoredIgnored: 0 });
  assert.deepEqual(assays.values.get("D")?.assay, { p: 6, relation: ">", rows: 2, censoredIgnored: 0 });
  assert.deepEqual(Object.fromEntries(assays.activities), { A: { assay: 6.5 } });
});

test("blank, n.d., ND, NA, n/a, NT and - are missing values, counted and not an error", async (t) => {
  const assays = await table(
    t,
    "candidate_id,value,unit\nA,100,nM\nB,n.d.,nM\nC,ND,nM\nD,NA,\nE,,\nF,n/a,nM\nG,NT,nM\nH,-,nM\n",
  );
  assert.equal(assays.rowCount, 1);
  assert.equal(assays.missingRows, 7);
  assert.deepEqual([...assays.values.keys()], ["A"]);
  // Every id is still checked against the portfolio, measured or not.
  assert.deepEqual([...assays.firstLine.keys()], ["A", "B", "C", "D", "E", "F", "G", "H"]);
});

test("every problem of the file is refused at once, each naming its line and field", async (t) => {
  const error = await refusal(
    t,
    "candidate_id,assay_id,value,unit,relation\nA,x,abc,nM,\n,x,5,nM,\nC,x,5,ppm,\nD,x,5,nM,?=\nE,x,5,nM\nF,x,>5,nM,<\n",
  );
  assert.equal(error.code, "ASSAYS_INVALID");
  assert.equal(
    error.message,
    "01_sources/assays.csv: 6 problems: " +
      'line 2, field value: "abc" is not a number (a qualifier such as > or ≤ may lead it); ' +
      "line 3, field candidate_id: empty candidate id; " +
      'line 4, field unit: unknown unit "ppm" (one of M, mM, uM (µM), nM, pM); ' +
      'line 5, field relation: unknown relation "?=" (one of =, <, <=, >, >=, ≤, ≥, ~); ' +
      "line 6: 4 fields, the header has 5; " +
      'line 7, field relation: relation "<" contradicts the value\'s own ">5"',
  );
});
