import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import { assertStructureToolsInCi, structureToolsMissing } from "../../test/support/structure-tools.ts";
import { createLigandPreparer, LIGAND_EMBEDDING_SEED } from "./ligand-preparer.ts";
import { parseSdf } from "./molfile.ts";

const skip = structureToolsMissing ?? false;

test("a ligand is protonated at pH 7.4, embedded in 3D and written as SDF and PDBQT, the same bytes for the same seed", {
  skip,
}, async (t) => {
  assertStructureToolsInCi();
  const dir = await makeTempDir("svc-ligand-", t);
  // Tyrosine: at pH 7.4 a zwitterion (Open Babel's pH model charges the amine and the carboxylate).
  const input = { id: "tyrosine", smiles: "N[C@@H](Cc1ccc(O)cc1)C(=O)O" };
  const first = await createLigandPreparer({ workDir: `${dir}/a` }).prepare(input);
  const second = await createLigandPreparer({ workDir: `${dir}/b`, seed: LIGAND_EMBEDDING_SEED }).prepare(
    input,
  );
  assert.equal(first.status, "prepared", JSON.stringify(first));
  assert.equal(second.status, "prepared");
  if (first.status !== "prepared" || second.status !== "prepared") return;
  assert.match(first.protonatedSmiles, /\[NH3\+\]/);
  assert.match(first.protonatedSmiles, /C\(=O\)\[O-\]/);
  assert.equal(first.formalCharge, 0);
  assert.equal(first.heavyAtoms, 13);
  const [molecule] = parseSdf(readFileSync(first.sdfPath, "utf8"));
  assert.equal(molecule?.atoms.filter((atom) => atom.element !== "H").length, 13);
  assert.ok(
    molecule?.atoms.some((atom) => atom.position[2] !== 0),
    "3D coordinates",
  );
  const pdbqt = readFileSync(first.pdbqtPath, "utf8");
  assert.match(pdbqt, /^TORSDOF \d+/m);
  assert.doesNotMatch(pdbqt, /\+0\.000 N/, "Gasteiger charges, not zeros");
  assert.equal(pdbqt, readFileSync(second.pdbqtPath, "utf8"));
  assert.equal(first.invocation.argv.at(-1), String(LIGAND_EMBEDDING_SEED));
});

test("ligands that cannot be prepared are unassessed with their reason, never thrown", {
  skip,
}, async (t) => {
  assertStructureToolsInCi();
  const preparer = createLigandPreparer({ workDir: await makeTempDir("svc-ligand-", t) });
  const cases = [
    // MMFF94 has no boron parameters.
    { id: "boronic", smiles: "OB(O)c1ccccc1", reason: /MMFF94 has no parameters/ },
    { id: "ion", smiles: "[Na+]", reason: /no carbon atom/ },
    { id: "salt", smiles: "CC(=O)[O-].[Na+]", reason: /more than one fragment/ },
    { id: "garbage", smiles: "C1CC(", reason: /could not read/ },
  ];
  for (const entry of cases) {
    const result = await preparer.prepare(entry);
    assert.equal(result.status, "unassessed", entry.id);
    if (result.status === "unassessed")
      assert.match(result.reason, entry.reason, `${entry.id}: ${result.reason}`);
  }
});

test("a preparation that exceeds its time budget is killed and unassessed", { skip }, async (t) => {
  assertStructureToolsInCi();
  const preparer = createLigandPreparer({ workDir: await makeTempDir("svc-ligand-", t), timeoutMs: 1 });
  const result = await preparer.prepare({ id: "x", smiles: "CCO" });
  assert.equal(result.status, "unassessed");
  if (result.status === "unassessed") assert.match(result.reason, /exceeded its time budget of 1 ms/);
});
