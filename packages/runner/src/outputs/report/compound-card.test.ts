import assert from "node:assert/strict";
import { test } from "node:test";
import { renderCard } from "./compound-card.ts";
import { readCompoundView } from "./compound-view.ts";

const compound = {
  row: { index: 1, candidateId: "C1", name: null, smiles: "CCO", metadata: { IC50_nM: "12" } },
  ok: true,
  chem: {
    parent_smiles: "CCO",
    parent_inchikey: "LFQSCWFLJHTTHZ-UHFFFAOYSA-N",
    inchikey: null,
    fragment_count: 1,
  },
};

const extras = { depiction: null, cluster: { id: 1, size: 1 }, neighbours: [], cardedRanks: 1 };

/** The card without its evidence viewer (the one place raw JSON may appear, hidden until followed). */
const visible = (html: string) => html.replace(/<pre>[\s\S]*?<\/pre>/g, "");

test("a module the card does not know yet gets an Other findings panel of small tables, never JSON", () => {
  const docking = {
    evidence_id: "EID-binding_site_druggability-000001",
    status: "assessed",
    best_pose: { affinity_kcal_mol: -7.2, receptor: "P00519" },
    poses: [
      { rank: 1, affinity: -7.2 },
      { rank: 2, affinity: -6.9 },
    ],
  };
  const view = readCompoundView(compound, new Map([["binding_site_druggability", docking]]), new Map());
  const html = renderCard(view, 1, extras);
  assert.match(html, /data-panel="other-binding_site_druggability"/);
  assert.match(html, /<th>best pose\.affinity kcal mol<\/th>/);
  assert.match(html, /rank=1 affinity=-7\.2; rank=2 affinity=-6\.9/);
  assert.doesNotMatch(visible(html), /\{&#34;|\{"/, "no JSON outside the evidence viewer");
  assert.match(html, /<pre>\{"evidence_id"/, "the raw finding stays one click away");
});

test("CYP values of a new cyp_assessment module join the pharmacokinetics panel; customer columns are on the card", () => {
  const cyp = { evidence_id: "EID-cyp_assessment-000001", cyp3a4_inhibitor_probability: 0.71 };
  const view = readCompoundView(compound, new Map([["cyp_assessment", cyp]]), new Map());
  const html = renderCard(view, 1, extras);
  const pk = /<section class="cp" data-panel="pharmacokinetics">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  assert.match(pk, /cyp3a4 inhibitor probability/);
  assert.match(pk, /0\.71/);
  assert.doesNotMatch(html, /data-panel="other-cyp_assessment"/);
  assert.match(html, /<th>IC50_nM<\/th><td>12<\/td>/);
});

test("the card's evidence leaves out a model's run-wide fields and keeps every compound value", () => {
  const cyp = {
    evidence_id: "EID-cyp_assessment-000001",
    isoforms: {
      CYP3A4: {
        model_id: "tdc_cyp3a4_mlp64",
        training_sha256: "ab".repeat(32),
        training_file: "tdc-cyp3a4-veith.csv",
        in_domain: true,
        domain_rule: "nearest training Tanimoto (Morgan r2) ≥ 0.3",
        probability: 0.71,
      },
    },
    ct_tox_domain_rule: "descriptor box of ClinTox",
  };
  const view = readCompoundView(compound, new Map([["cyp_assessment", cyp]]), new Map());
  const evidence = /<pre>([\s\S]*?)<\/pre>/.exec(renderCard(view, 1, extras))?.[1] ?? "";
  assert.match(evidence, /&#34;probability&#34;:0\.71|"probability":0\.71/);
  assert.match(evidence, /in_domain/);
  assert.doesNotMatch(evidence, /model_id|training_sha256|training_file|domain_rule/);
});
