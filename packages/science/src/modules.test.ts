import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../test/support/compound-row.ts";
import { inOneThread } from "./define-module.ts";
import { SUMMARY_LIST_LIMIT } from "./first-entries.ts";
import { kinaseDrugLikeness } from "./kinase-drug-likeness.ts";
import { molecularLogic } from "./molecular-logic.ts";
import { prepareCompound } from "./prepare-compound.ts";
import { loadRDKit } from "./rdkit.ts";

test("imatinib: InChIKey, descriptors and rules match known values", async () => {
  const rdkit = await loadRDKit();
  const compound = prepareCompound(
    rdkit,
    row(1, "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1"),
  );
  assert.ok(compound.ok);
  assert.equal(compound.chem.inchikey, "KTUFNOKKBVMGRW-UHFFFAOYSA-N");
  assert.equal(compound.chem.descriptors.average_mw, 493.615);
  const finding = inOneThread(kinaseDrugLikeness).analyze(compound);
  assert.equal(finding.rules?.lipinski.pass, true);
  assert.equal(finding.rules?.veber.pass, true);
  assert.match(finding.evidence_id, /^EID-kinase_drug_likeness-000001$/);
});

test("a salt is standardized to its parent and flagged as a duplicate of the free base", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(molecularLogic);
  analyzer.analyze(prepareCompound(rdkit, row(1, "CC(=O)Oc1ccccc1C(=O)O")));
  const salt = analyzer.analyze(prepareCompound(rdkit, row(2, "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]")));
  assert.equal(salt.fragment_count, 2);
  assert.equal(salt.net_charge, 0);
  // Issue 24 item 3: the carboxylate is neutralised, so the salt's parent is the acid itself.
  assert.equal(salt.parent_net_charge, 0);
  assert.equal(salt.parent_neutralised, true);
  assert.equal(salt.duplicate_of, "C1", "the sodium salt and the free acid are one compound");
  const again = analyzer.analyze(prepareCompound(rdkit, row(3, "OC(=O)c1ccccc1OC(C)=O")));
  assert.equal(again.duplicate_of, "C1");
  assert.equal(analyzer.finish().duplicates.length, 2);
});

test("molecular_logic's summary stays bounded: its lists hold the first SUMMARY_LIST_LIMIT entries and count them all", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(molecularLogic);
  const rows = SUMMARY_LIST_LIMIT + 500;
  // One structure repeated (a counterion-only salt, so every row is also flagged no_organic_parent).
  const salt = prepareCompound(rdkit, row(1, "[Na+].[Cl-]"));
  for (let at = 1; at <= rows; at++)
    analyzer.analyze({ ...salt, row: { ...salt.row, candidateId: `C${at}` } });
  const summary = analyzer.finish();
  assert.equal(summary.duplicate_count, rows - 1);
  assert.equal(summary.duplicates.length, SUMMARY_LIST_LIMIT);
  assert.deepEqual(summary.duplicates[0], { candidate_id: "C2", duplicate_of: "C1" });
  assert.equal(summary.no_organic_parent_count, rows);
  assert.equal(summary.no_organic_parent.length, SUMMARY_LIST_LIMIT);
  assert.equal(summary.list_limit, SUMMARY_LIST_LIMIT);
});

test("unparseable and empty SMILES are reported per row, not thrown", async () => {
  const rdkit = await loadRDKit();
  const ml = inOneThread(molecularLogic);
  const dl = inOneThread(kinaseDrugLikeness);
  for (const [index, smiles] of [
    [1, "C1CC"],
    [2, ""],
  ] as const) {
    const compound = prepareCompound(rdkit, row(index, smiles));
    assert.equal(compound.ok, false);
    assert.equal(ml.analyze(compound).status, "unparseable");
    assert.equal(dl.analyze(compound).status, "not_assessed");
  }
  assert.deepEqual(ml.finish().unparseable_candidates, ["C1", "C2"]);
  const ring = prepareCompound(rdkit, row(3, "C1CC"));
  assert.ok(!ring.ok);
  assert.match(ring.error, /^RDKit: SMILES Parse Error: unclosed ring/, "RDKit's own reason is kept");
  const valence = prepareCompound(rdkit, row(4, "C(C)(C)(C)(C)C"));
  assert.ok(!valence.ok);
  assert.match(valence.error, /Explicit valence for atom # 0 C, 5/);
  assert.equal(dl.finish().assessed, 0);
});

test("a molecule breaking two Lipinski limits fails the rule; Veber and Egan are checked separately", async () => {
  const rdkit = await loadRDKit();
  // C40 alkane chain with a carboxylic acid: MW > 500 and WLOGP > 5, many rotatable bonds.
  const compound = prepareCompound(rdkit, row(1, `${"C".repeat(40)}C(=O)O`));
  const finding = inOneThread(kinaseDrugLikeness).analyze(compound);
  assert.equal(finding.rules?.lipinski.pass, false);
  assert.equal(finding.rules?.lipinski.violations.length, 2);
  assert.equal(finding.rules?.veber.pass, false);
  assert.equal(finding.rules?.egan.pass, false);
});

test("a prepared compound survives structured clone and JSON as plain data (no RDKit handle)", async () => {
  const rdkit = await loadRDKit();
  const compound = prepareCompound(rdkit, row(1, "CCO"));
  assert.ok(compound.ok);
  assert.equal(compound.rdkit, rdkit);
  const copy = structuredClone(compound);
  assert.equal(Object.hasOwn(copy, "rdkit"), false);
  assert.equal(JSON.parse(JSON.stringify(compound)).chem.parent_smiles, "CCO");
});

test("a row RDKit never judged (size guard, fault, time budget) is unassessed, not unparseable", async () => {
  const rdkit = await loadRDKit();
  const ml = inOneThread(molecularLogic);
  const dl = inOneThread(kinaseDrugLikeness);
  ml.analyze(prepareCompound(rdkit, row(1, "CCO")));
  ml.analyze(prepareCompound(rdkit, row(2, "C1CC")));
  const giant = {
    row: row(3, "C".repeat(1000)),
    ok: false as const,
    error: "unassessed: 1000 heavy atoms",
    unassessed: true,
  };
  const finding = ml.analyze(giant);
  assert.equal(finding.status, "unassessed");
  assert.equal(finding.error, "unassessed: 1000 heavy atoms");
  assert.equal(dl.analyze(giant).reason, "unassessed: 1000 heavy atoms");
  const summary = ml.finish();
  assert.deepEqual(summary.unparseable_candidates, ["C2"]);
  assert.deepEqual(summary.unassessed_candidates, ["C3"]);
  assert.equal(summary.parsed, 1);
  assert.equal(summary.parse_rate, 0.5, "parsed over the rows RDKit judged");
});
