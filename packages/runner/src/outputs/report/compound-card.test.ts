import assert from "node:assert/strict";
import { test } from "node:test";
import { CNS_MPO_COMPONENTS, CNS_MPO_THRESHOLD } from "@svc/science/cns";
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

test("the model calls panel shows all 12 liability and PK models, one line each: yes / no / uncertain with p, unknown with the reason, never a silent gap or a raw key (issue 37 item 5)", () => {
  const call = (probability: number, c: string) => ({ probability, call: c, in_domain: true });
  const cyp = {
    evidence_id: "EID-cyp_assessment-000001",
    isoforms: {
      CYP1A2: call(0.2, "negative"),
      CYP2C9: call(0.55, "uncertain"),
      CYP2C19: call(0.1, "negative"),
      CYP2D6: {
        status: "out_of_domain",
        in_domain: false,
        domain_reason: "out_of_domain: nearest training compound at Tanimoto 0.21",
      },
      CYP3A4: call(0.92, "positive"),
    },
  };
  const tox = {
    evidence_id: "EID-toxicity_profile-000001",
    pains: [],
    brenk: [],
    nibr: [],
    tox21_fingerprint_model: { probabilities: { "NR-AR": 0.6 }, in_domain: true },
    herg: call(0.93, "positive"),
    dili: call(0.3, "negative"),
    ames: call(0.7, "uncertain"),
  };
  const admet = {
    evidence_id: "EID-admet_predictions-000001",
    pgp: call(0.05, "negative"),
    caco2: { value: -4.8, in_domain: true },
  };
  const precedent = { ct_tox_probability: 0.2, ct_tox_in_domain: true };
  const view = readCompoundView(
    compound,
    new Map<string, unknown>([
      ["cyp_assessment", cyp],
      ["toxicity_profile", tox],
      ["admet_predictions", admet],
      ["clinical_precedent_prior", precedent],
    ]),
    new Map(),
  );
  const html = renderCard(view, 1, extras);
  const panel = /<section class="cp" data-panel="model-calls">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  const rows = [...panel.matchAll(/<tr>/g)].length;
  assert.equal(rows, 12, "hERG, DILI, Ames, P-gp, 5 CYPs, ClinTox, Tox21, Caco-2");
  assert.match(panel, /hERG blocker[\s\S]*?yes \(p 0\.93\)/);
  assert.match(panel, /Ames mutagen[\s\S]*?uncertain \(p 0\.70\)/);
  assert.match(panel, /CYP2D6 inhibitor[\s\S]*?unknown/);
  assert.match(panel, /CYP3A4 inhibitor[\s\S]*?yes \(p 0\.92\)/);
  assert.match(panel, /Tox21 \(12 assays\)[\s\S]*?active: NR-AR/);
  assert.match(panel, /Caco-2 permeability[\s\S]*?log Papp -4\.8/);
  assert.doesNotMatch(html, /data-panel="other-cyp_assessment"/);
  const pk = /<section class="cp" data-panel="pharmacokinetics">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  assert.doesNotMatch(pk, /cyp|isoforms/i, "no raw CYP keys in the pharmacokinetics panel");
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

test("the solubility row's light follows science's log S classes and names the model's training data (issue 41 item 5)", () => {
  const card = (logS: number) => {
    const solubility = {
      evidence_id: "EID-solubility_assessment-000001",
      status: "assessed",
      log_s: logS,
      model: "network",
      solubility_class: null,
      in_domain: true,
    };
    const html = renderCard(
      readCompoundView(compound, new Map([["solubility_assessment", solubility]]), new Map()),
      1,
      extras,
    );
    const row = /<tr[^>]*>(?:(?!<\/tr>)[\s\S])*log S(?:(?!<\/tr>)[\s\S])*<\/tr>/.exec(html)?.[0] ?? "";
    assert.ok(row, "the card has a log S row");
    return row;
  };
  // SwissADME's bounds: soluble from −4, moderately from −6, poorly below
  assert.match(card(-3.9), /light g/);
  assert.match(card(-5.0), /light a/);
  assert.match(card(-6.5), /light r/);
  assert.match(card(-5.0), /trained on AqSolDB/);
  assert.doesNotMatch(card(-5.0), /Delaney 2004 data/);
});

test("the physicochemistry lights and limits come from the published rules science owns: MW past Lipinski's 500 is red, rotatable bonds past Veber's 10 red (issue 41 item 5)", () => {
  const admet = {
    evidence_id: "EID-admet_predictions-000001",
    status: "assessed",
    mw: 581.2,
    tpsa: 80,
    hbd: 2,
    hba: 6,
    rotatable_bonds: 12,
    wlogp: 3.1,
  };
  const html = renderCard(
    readCompoundView(compound, new Map([["admet_predictions", admet]]), new Map()),
    1,
    extras,
  );
  const row = (label: string) =>
    new RegExp(`<tr[^>]*>(?:(?!</tr>)[\\s\\S])*${label}(?:(?!</tr>)[\\s\\S])*</tr>`).exec(html)?.[0] ?? "";
  assert.match(row("MW"), /light r[\s\S]*Lipinski ≤ 500/);
  assert.match(row("Rotatable bonds"), /light r[\s\S]*Veber ≤ 10/);
  assert.match(row("TPSA"), /light g[\s\S]*Ertl \(N, O\); Veber ≤ 140/);
  assert.match(row("WLOGP"), /light g[\s\S]*Wildman–Crippen 1999; Lipinski ≤ 5/);
});

test("the log D7.4 light reads Wager's CNS MPO ClogD function as science owns it: green where it gives 1, amber between, red where it gives 0 (issue 41 item 5)", () => {
  const { oneAtOrBelow, zeroAtOrAbove } = CNS_MPO_COMPONENTS.clogd;
  const lipophilicity = (logd: number) => {
    const admet = {
      evidence_id: "EID-admet_predictions-000001",
      status: "assessed",
      logd74: { value: logd, nearest_tanimoto: 0.6, in_domain: true, model: "logd_model" },
    };
    const html = renderCard(
      readCompoundView(compound, new Map([["admet_predictions", admet]]), new Map()),
      1,
      extras,
    );
    return /<section class="cp" data-panel="lipophilicity">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  };
  assert.match(lipophilicity(oneAtOrBelow), /log D7\.4<\/th><td><span class="light g"/);
  assert.match(lipophilicity((oneAtOrBelow + zeroAtOrAbove) / 2), /log D7\.4<\/th><td><span class="light a"/);
  assert.match(lipophilicity(zeroAtOrAbove), /log D7\.4<\/th><td><span class="light r"/);
  assert.match(
    lipophilicity(1),
    new RegExp(
      `logd_model; nearest training Tanimoto 0\\.6; Wager CNS MPO 1 at ≤ ${oneAtOrBelow}, 0 at ≥ ${zeroAtOrAbove}`,
    ),
  );
});

test("the CNS MPO row states science's threshold and whether the compound meets it (issue 41 item 5)", () => {
  const cns = {
    evidence_id: "EID-cns_penetration-000001",
    status: "assessed",
    cns_mpo: { score_known: 4.5, max_known: 5, score_range: [4.5, 5.5], meets_threshold: true },
  };
  const html = renderCard(
    readCompoundView(compound, new Map([["cns_penetration", cns]]), new Map()),
    1,
    extras,
  );
  assert.match(
    html,
    new RegExp(
      `CNS MPO</th><td><span class="light g"[^>]*></span>4\\.5–5\\.5 of 6[\\s\\S]*?Wager 2010; ≥ ${CNS_MPO_THRESHOLD} met`,
    ),
  );
});
