import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { safetyPanel } from "./safety-panel.ts";
import { targetBiologyRisk } from "./target-biology-risk.ts";

test("a predicted liability names its target and organ systems; what modulating the target does is stated once per run in the summary's panel_effects, for exactly the targets predicted (issue 42 item 2)", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(targetBiologyRisk, { targets: null });
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "CC(C)NCC(O)COc1cccc2ccccc12")), new Map());
  const liabilities = finding.off_target_liabilities ?? [];
  assert.ok(liabilities.length > 0, "propranolol's neighbours act on panel targets");
  for (const liability of liabilities) {
    assert.equal("adverse_effects_on_activation" in liability, false, liability.gene_symbol);
    assert.equal("pmid" in liability, false, liability.gene_symbol);
    assert.ok(Array.isArray(liability.organ_systems));
  }
  const summary = analyzer.finish();
  assert.deepEqual(
    Object.keys(summary.panel_effects).sort(),
    [...new Set(liabilities.map((l) => l.gene_symbol))].sort(),
  );
  const adrb1 = safetyPanel().find((t) => t.gene_symbol === "ADRB1");
  assert.deepEqual(
    summary.panel_effects.ADRB1?.adverse_effects_on_inhibition,
    adrb1?.adverse_effects_on_inhibition,
  );
  assert.equal(summary.panel_effects.ADRB1?.pmid, adrb1?.pmid);
});
