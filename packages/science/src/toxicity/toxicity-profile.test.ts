import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { toxicityProfile } from "./toxicity-profile.ts";

test("alerts are read on the parent: a picrate counterion's nitro groups are not reported", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(toxicityProfile);
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
    [
      ...(picric.pains ?? []),
      ...(picric.nibr ?? []).map((hit) => hit.name),
      ...(picric.brenk ?? []).map((name) => `brenk:${name}`),
    ].sort(),
  );
});

test("Brenk alerts are reported per compound and counted in the summary under brenk:<name>", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(toxicityProfile);
  // Phenylhydrazine: Brenk's hydrazine, a name NIBR also uses, so the summary keys them apart.
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "NNc1ccccc1")));
  assert.ok(finding.brenk?.includes("hydrazine"), JSON.stringify(finding.brenk));
  analyzer.analyze(prepareCompound(rdkit, row(2, "c1ccccc1")));
  const summary = analyzer.finish();
  assert.equal(summary.with_brenk, 1);
  assert.equal(summary.alert_counts["brenk:hydrazine"], 1);
});

test("an unparseable compound is not assessed, and the summary cites every alert set", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(toxicityProfile);
  const finding = analyzer.analyze(prepareCompound(rdkit, row(1, "C1CC")));
  assert.equal(finding.status, "not_assessed");
  assert.match(finding.reason ?? "", /unclosed ring/);
  assert.equal(finding.pains, null);
  const summary = analyzer.finish();
  assert.equal(summary.not_assessed, 1);
  assert.equal(summary.with_brenk, 0);
  assert.equal(finding.brenk, null);
  assert.match(summary.method.citations.join(" "), /Baell & Holloway/);
  assert.match(summary.method.citations.join(" "), /Brenk et al., ChemMedChem 2008, 3, 435/);
});
