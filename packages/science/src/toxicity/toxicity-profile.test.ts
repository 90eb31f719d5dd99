import assert from "node:assert/strict";
import { test } from "node:test";
import type { CompoundRow } from "../compound-row.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { toxicityProfile } from "./toxicity-profile.ts";

const row = (index: number, smiles: string): CompoundRow => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles,
  metadata: {},
});

test("alerts are read on the parent: a picrate counterion's nitro groups are not reported", async () => {
  const rdkit = await loadRDKit();
  const analyzer = toxicityProfile.createAnalyzer();
  const salt = analyzer.analyze(
    prepareCompound(rdkit, row(1, "COc1ccc(cc1)-c1ccccn1.Oc1c(cc(cc1[N+]([O-])=O)[N+]([O-])=O)[N+]([O-])=O")),
  );
  assert.equal(salt.status, "assessed");
  assert.ok(!salt.nibr?.some((hit) => hit.name.startsWith("nitro")), JSON.stringify(salt.nibr));
  const picric = analyzer.analyze(
    prepareCompound(rdkit, row(2, "Oc1c(cc(cc1[N+]([O-])=O)[N+]([O-])=O)[N+]([O-])=O")),
  );
  assert.ok(
    picric.nibr?.some((hit) => hit.name.startsWith("nitro")),
    JSON.stringify(picric.nibr),
  );
  assert.deepEqual(
    Object.keys(picric.alert_atoms ?? {}).sort(),
    [...(picric.pains ?? []), ...(picric.nibr ?? []).map((hit) => hit.name)].sort(),
  );
});

test("an unparseable compound is not assessed, and the summary says Brenk is not available and why", async () => {
  const rdkit = await loadRDKit();
  const analyzer = toxicityProfile.createAnalyzer();
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "C1CC")));
  assert.equal(finding.status, "not_assessed");
  assert.match(finding.reason ?? "", /unclosed ring/);
  assert.equal(finding.pains, null);
  const summary = analyzer.finish();
  assert.equal(summary.not_assessed, 1);
  assert.equal(summary.brenk.status, "not_available");
  assert.match(summary.method.citations.join(" "), /Baell & Holloway/);
});
