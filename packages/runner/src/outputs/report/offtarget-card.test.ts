import assert from "node:assert/strict";
import { test } from "node:test";
import { inOneThread, loadRDKit, prepareCompound } from "@svc/science/modules";
import { offtargetScreening } from "@svc/science/offtarget";
import { renderCard } from "./compound-card.ts";
import { readCompoundView } from "./compound-view.ts";
import { findingHeader, flattenFinding } from "./finding-columns.ts";

const PROPRANOLOL = "CC(C)NCC(O)COc1cccc2ccccc12";

test("offtarget_screening's top targets reach the card as one line of its panel and report.csv as one column, a card adding under 6 kB", async () => {
  const rdkit = await loadRDKit();
  const row = { index: 1, line: 2, candidateId: "C1", name: null, smiles: PROPRANOLOL, metadata: {} };
  const prepared = prepareCompound(rdkit, row);
  assert.ok(prepared.ok);
  const finding = inOneThread(offtargetScreening).analyze(prepared);
  const compound = {
    row,
    ok: true,
    chem: {
      parent_smiles: prepared.chem.parent_smiles,
      parent_inchikey: null,
      inchikey: null,
      fragment_count: 1,
    },
  };
  const extras = { depiction: null, cluster: { id: 1, size: 1 }, neighbours: [], cardedRanks: 1 };
  const without = renderCard(readCompoundView(compound, new Map(), new Map()), 1, extras);
  const html = renderCard(
    readCompoundView(compound, new Map([["offtarget_screening", finding]]), new Map()),
    1,
    extras,
  );
  assert.match(html, /data-panel="other-offtarget_screening"/);
  assert.match(
    html,
    /<th>similar drug targets hypothesis<\/th><td>Beta-2 adrenergic receptor \(P07550\) 1\.00: propranolol/,
  );
  assert.ok(html.length - without.length < 6_000, `${html.length - without.length} bytes added`);
  const columns = new Map(flattenFinding("offtarget_screening", finding));
  assert.equal(
    findingHeader("offtarget_screening.similar_drug_targets_hypothesis"),
    "offtarget_screening.similar_drug_targets_hypothesis",
  );
  assert.equal(
    columns.get("offtarget_screening.similar_drug_targets_hypothesis"),
    finding.similar_drug_targets_hypothesis,
  );
  assert.match(
    String(columns.get("offtarget_screening.targets")),
    /^accession=P07550 name=Beta-2 adrenergic receptor score=1 /,
  );
});
