import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { CompoundPool } from "../pool/compound-pool.ts";
import { RunnerError } from "../runner-error.ts";
import { type PortfolioRow, readPortfolioRows, validatePortfolio } from "./portfolio.ts";

async function stage(t: { after: (fn: () => Promise<void>) => void }, name: string, text: string) {
  const dir = await mkdtemp(join(tmpdir(), "portfolio-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function rowsOf(path: string): Promise<PortfolioRow[]> {
  const rows: PortfolioRow[] = [];
  for await (const row of readPortfolioRows(path)) rows.push(row);
  return rows;
}

test("headers match in any letter case with their aliases, and a semicolon table is read as such", async (t) => {
  const path = await stage(
    t,
    "p.csv",
    "ID;Name;SMILES;pIC50\nA;aspirin;CC(=O)Oc1ccccc1C(=O)O;5,2\nB;;CCO;6\n",
  );
  assert.deepEqual(await validatePortfolio(path, "B"), { format: "table", rowCount: 2 });
  const rows = await rowsOf(path);
  assert.deepEqual(
    rows.map(({ candidateId, name, smiles, metadata, line }) => ({
      candidateId,
      name,
      smiles,
      metadata,
      line,
    })),
    [
      {
        candidateId: "A",
        name: "aspirin",
        smiles: "CC(=O)Oc1ccccc1C(=O)O",
        metadata: { pIC50: "5,2" },
        line: 2,
      },
      { candidateId: "B", name: null, smiles: "CCO", metadata: { pIC50: "6" }, line: 3 },
    ],
  );
});

test("a tab-separated table with canonical_smiles and compound_id is read", async (t) => {
  const path = await stage(t, "p.tsv", "compound_id\tcanonical_smiles\nX1\tc1ccccc1\n");
  const [row] = await rowsOf(path);
  assert.equal(row?.candidateId, "X1");
  assert.equal(row?.smiles, "c1ccccc1");
});

test("a .smi file gives SMILES and ids per line, like NCI first_5K.smi", async (t) => {
  const path = await stage(t, "nci.smi", "CC1=CC(=O)C=CC1=O\t1\n\nOC1=CC=CC=C1 2 phenol\n");
  const rows = await rowsOf(path);
  assert.deepEqual(
    rows.map(({ candidateId, smiles, name, line }) => ({ candidateId, smiles, name, line })),
    [
      { candidateId: "1", smiles: "CC1=CC(=O)C=CC1=O", name: null, line: 1 },
      { candidateId: "2", smiles: "OC1=CC=CC=C1", name: "phenol", line: 3 },
    ],
  );
});

test("duplicate ids and a missing SMILES column are refused naming file, line and field", async (t) => {
  const dup = await stage(t, "d.csv", "Compound_ID,smiles\nA,C\nA,CC\n");
  await assert.rejects(validatePortfolio(dup, null), (error: unknown) => {
    assert.ok(error instanceof RunnerError && error.code === "DUPLICATE_CANDIDATE_ID");
    assert.match(
      error.message,
      /01_sources\/d.csv line 3, field Compound_ID: duplicate candidate id "A" \(first at line 2\)/,
    );
    return true;
  });
  const none = await stage(t, "n.csv", "id;formula\nA;C\n");
  await assert.rejects(
    validatePortfolio(none, null),
    /line 1: no structure column: "smiles" \(or "canonical_smiles", .*\(found: id, formula\)/,
  );
});

test("a chemist's headers are read: Smiles (canonical), Compound ID, Molecule Name (issue 37 item 6)", async (t) => {
  const path = await stage(
    t,
    "c.csv",
    "Compound ID,Molecule Name,Smiles (canonical),IC50 (nM)\nMTX-1,methotrexate,CN(Cc1cnc2nc(N)nc(N)c2n1)c1ccc(cc1)C(=O)NC(CCC(=O)O)C(=O)O,1.2\n",
  );
  assert.deepEqual(await validatePortfolio(path, "MTX-1"), { format: "table", rowCount: 1 });
  const [row] = await rowsOf(path);
  assert.equal(row?.candidateId, "MTX-1");
  assert.equal(row?.name, "methotrexate");
  assert.match(row?.smiles ?? "", /^CN\(Cc1cnc2/);
  assert.deepEqual(row?.metadata, { "IC50 (nM)": "1.2" });
});

test("SD files written by native RDKit, V2000 and V3000, give the molecules native RDKit reads, with names and properties", async (t) => {
  // The fixtures and the reference canonical SMILES come from native RDKit (python3-rdkit), not from us.
  const script = `import sys, json
from rdkit import Chem
out = sys.argv[1]
mols = [("aspirin", "CC(=O)Oc1ccccc1C(=O)O", "A-1"), ("L-alanine", "C[C@@H](C(=O)O)N", "A-2"), ("", "c1ccncc1", "")]
keys = []
for v3000, path in ((False, out + "/v2000.sdf"), (True, out + "/v3000.sdf")):
    writer = Chem.SDWriter(path)
    writer.SetForceV3000(v3000)
    for name, smi, cid in mols:
        m = Chem.MolFromSmiles(smi)
        m.SetProp("_Name", name)
        if cid: m.SetProp("compound_id", cid)
        m.SetProp("pIC50", "7.1")
        writer.write(m)
    writer.close()
print(json.dumps([Chem.MolToSmiles(Chem.MolFromSmiles(s)) for _, s, _ in mols]))`;
  const dir = await mkdtemp(join(tmpdir(), "portfolio-sdf-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const canonical = JSON.parse(execFileSync("/usr/bin/python3", ["-c", script, dir], { encoding: "utf8" }));
  const pool = await CompoundPool.start({ size: 1, timeoutMs: 60_000 });
  t.after(() => pool.close());
  for (const file of ["v2000.sdf", "v3000.sdf"]) {
    const path = join(dir, file);
    assert.deepEqual(await validatePortfolio(path, "A-2"), { format: "sdf", rowCount: 3 }, file);
    const rows = await rowsOf(path);
    assert.deepEqual(
      rows.map((row) => [row.candidateId, row.name, row.metadata]),
      [
        ["A-1", "aspirin", { pIC50: "7.1" }],
        ["A-2", "L-alanine", { pIC50: "7.1" }],
        ["row_3", null, { pIC50: "7.1" }],
      ],
      file,
    );
    const smiles = [];
    for (const row of rows) {
      const outcome = await pool.prepare(row);
      assert.equal(outcome.kind, "prepared");
      smiles.push(
        outcome.kind === "prepared" && outcome.compound.ok ? outcome.compound.chem.canonical_smiles : null,
      );
    }
    assert.deepEqual(smiles, canonical, `${file}: same molecules as native RDKit, stereo included`);
  }
});
