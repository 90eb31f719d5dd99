import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { synthesisAudit } from "./synthesis-audit.ts";

test("scores the parent, reports its terms, and says why a compound was not assessed", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(synthesisAudit);
  // The sodium counterion is stripped: the salt scores as its parent acid's anion.
  const salt = analyzer.analyze(prepareCompound(rdkit, row(1, "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]")));
  const parent = analyzer.analyze(prepareCompound(rdkit, row(2, "CC(=O)Oc1ccccc1C(=O)[O-]")));
  assert.equal(salt.status, "assessed");
  assert.equal(salt.sa_score, parent.sa_score);
  assert.equal(salt.evidence_id, "EID-synthesis_audit-000001");
  assert.equal(salt.sa_components?.heavy_atoms, 13);
  // Erythromycin: a 14-membered macrolide with 18 stereocentres is harder than aspirin.
  const macrolide = analyzer.analyze(
    prepareCompound(
      rdkit,
      row(
        3,
        "CC[C@@H]1[C@@]([C@@H]([C@H](C(=O)[C@@H](C[C@@]([C@@H]([C@H]([C@@H]([C@H](C(=O)O1)C)O[C@H]2C[C@@]([C@H]([C@@H](O2)C)O)(C)OC)C)O[C@H]3[C@@H]([C@H](C[C@H](O3)C)N(C)C)O)(C)O)C)C)O)(C)O",
      ),
    ),
  );
  assert.equal(macrolide.sa_components?.has_macrocycle, true);
  assert.equal(macrolide.sa_components?.stereocentres, 18);
  assert.ok(
    (macrolide.sa_score ?? 0) > (parent.sa_score ?? 10) + 2,
    `${macrolide.sa_score} vs ${parent.sa_score}`,
  );
  const bad = analyzer.analyze(prepareCompound(rdkit, row(4, "C1CC")));
  assert.equal(bad.status, "not_assessed");
  assert.equal(bad.sa_score, null);
  assert.match(bad.reason ?? "", /unclosed ring/);
  const summary = analyzer.finish();
  assert.equal(summary.assessed, 3);
  assert.equal(summary.method.citations[0], "Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8 (SA score)");
});
