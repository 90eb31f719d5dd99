import assert from "node:assert/strict";
import { test } from "node:test";
import { readCompoundView } from "./compound-view.ts";
import { compareRankKeys, rankKeyOf } from "./ranking.ts";
import { csvField } from "./table-columns.ts";

const reasons = new Map([
  ["admet_predictions", "not available in this build"],
  ["toxicity_profile", "not available in this build"],
]);

const row = (index: number, candidateId: string, smiles: string) => ({
  index,
  candidateId,
  name: null,
  smiles,
  metadata: {},
});

const salt = {
  row: row(16, "CAND-016", "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1.CS(=O)(=O)O"),
  ok: true,
  chem: {
    parent_smiles: "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1",
    parent_inchikey: "KTUFNOKKBVMGRW-UHFFFAOYSA-N",
    inchikey: "YLMAHDNUQAMNNX-UHFFFAOYSA-N",
    fragment_count: 2,
  },
};

const drugLikeness = {
  candidate_id: "CAND-016",
  evidence_id: "EID-kinase_drug_likeness-000016",
  descriptors: {
    mw: 493.615,
    clogp: 4.59,
    tpsa: 86.28,
    hbd: 2,
    hba: 8,
    rotatable_bonds: 7,
    aromatic_rings: 4,
    fsp3: 0.241,
  },
  rules: {
    lipinski: { pass: true, violations: [] },
    veber: { pass: true, violations: [] },
    egan: { pass: false, violations: ["TPSA 140 > 131.6"] },
  },
};

test("a salt shows its parent's InChIKey, not the salt's", () => {
  const view = readCompoundView(salt, new Map([["kinase_drug_likeness", drugLikeness]]), reasons);
  assert.equal(view.parent_inchikey, "KTUFNOKKBVMGRW-UHFFFAOYSA-N");
  assert.equal(view.salt_stripped, true);
});

test("a parse error shows RDKit's own message when molecular_logic carries one", () => {
  const failed = {
    row: row(3, "X", "C1CC(notasmiles"),
    ok: false,
    error: "SMILES does not parse or sanitize",
  };
  const rdkitMessage = "SMILES Parse Error: syntax error while parsing: C1CC(notasmiles";
  const withMessage = readCompoundView(
    failed,
    new Map([["molecular_logic", { error: rdkitMessage }]]),
    reasons,
  );
  assert.equal(withMessage.parse_error, rdkitMessage);
  assert.equal(readCompoundView(failed, new Map(), reasons).parse_error, "SMILES does not parse or sanitize");
});

test("descriptors fall back to kinase_drug_likeness and missing ones carry the module's reason", () => {
  const view = readCompoundView(salt, new Map([["kinase_drug_likeness", drugLikeness]]), reasons);
  assert.deepEqual(view.props.wlogp, { value: 4.59, source: "kinase_drug_likeness.descriptors.clogp" });
  assert.deepEqual(view.props.qed, { value: null, reason: "QED: not available in this build" });
  assert.deepEqual(view.props.logd74, { value: null, reason: "log D7.4: not available in this build" });
  assert.deepEqual(view.rules.ghose, { reason: "not available in this build" });
  assert.equal(view.alerts.pains, null, "no toxicity module: unknown, not clean");
  assert.equal(view.radar.insolu.value, null);
  assert.equal(view.radar.size.in_range, true);
});

test("admet_predictions' values win over the fallback, and alerts push a compound down the order", () => {
  const admet = {
    wlogp: 4.6,
    qed: 0.39,
    logd74: { value: 3.12, in_domain: true },
    rules: { ghose: { pass: false, violations: ["MR 141 > 130"] } },
  };
  const toxicity = { pains: ["anil_di_alk_A"], brenk: [], nibr: [{ name: "aniline", severity: "FLAG" }] };
  const view = readCompoundView(
    salt,
    new Map<string, unknown>([
      ["kinase_drug_likeness", drugLikeness],
      ["admet_predictions", admet],
      ["toxicity_profile", toxicity],
    ]),
    reasons,
  );
  assert.deepEqual(view.props.wlogp, { value: 4.6, source: "admet_predictions.wlogp" });
  assert.deepEqual(view.props.logd74, { value: 3.12, source: "admet_predictions.logd74.value" });
  assert.deepEqual(view.alerts.nibr, ["aniline (FLAG)"]);
  const clean = readCompoundView(
    { ...salt, row: row(20, "CLEAN", "CCO") },
    new Map<string, unknown>([["toxicity_profile", { pains: [], brenk: [], nibr: [] }]]),
    reasons,
  );
  assert.ok(compareRankKeys(rankKeyOf(clean), rankKeyOf(view)) < 0);
});

test("CSV fields are quoted per RFC 4180 and text formulas are defused", () => {
  assert.equal(csvField('a,"b"', false), '"a,""b"""');
  assert.equal(csvField("=HYPERLINK(1)", false), "'=HYPERLINK(1)");
  assert.equal(csvField(-1.03, true), "-1.03");
  assert.equal(csvField(null, true), "");
});

test("BOILED-Egg's TPSA with S and P is read from admet_predictions and never falls back to the N,O-only TPSA", () => {
  const admet = { tpsa: 71.44, tpsa_sp: 79.82 };
  const view = readCompoundView(
    salt,
    new Map<string, unknown>([
      ["kinase_drug_likeness", drugLikeness],
      ["admet_predictions", admet],
    ]),
    reasons,
  );
  assert.deepEqual(view.props.tpsa_sp, { value: 79.82, source: "admet_predictions.tpsa_sp" });
  assert.deepEqual(view.props.tpsa, { value: 71.44, source: "admet_predictions.tpsa" });
  const fallbackOnly = readCompoundView(salt, new Map([["kinase_drug_likeness", drugLikeness]]), reasons);
  assert.equal(
    fallbackOnly.props.tpsa_sp.value,
    null,
    "kinase_drug_likeness has no S,P TPSA to fall back on",
  );
});
