import assert from "node:assert/strict";
import { test } from "node:test";
import { readCompoundView } from "./compound-view.ts";
import { SUMMARY_COLUMNS } from "./summary-columns.ts";

const inDomain = (probability: number, call: string) => ({ probability, call, in_domain: true });

function view(potency: { p_activity: number; relation: string; rows: number } | null) {
  const findings = new Map<string, unknown>([
    [
      "admet_predictions",
      {
        mw: 454.4,
        wlogp: -0.34,
        tpsa: 210.5,
        hbd: 5,
        hba: 12,
        rotatable_bonds: 9,
        qed: 0.31,
        caco2: { value: -6.123, in_domain: true },
        pgp: inDomain(0.71, "positive"),
      },
    ],
    ["toxicity_profile", { herg: inDomain(0.04, "negative"), ames: inDomain(0.5, "uncertain") }],
  ]);
  return readCompoundView(
    {
      row: { index: 0, candidateId: "MTX", name: "methotrexate", smiles: "C", metadata: { series: "x" } },
      ok: true,
      chem: {
        parent_smiles: "C",
        parent_inchikey: "FBOZXECLQNJBKD-ZDUSSCGKSA-N",
        inchikey: null,
        fragment_count: 1,
      },
    },
    findings,
    new Map(),
    potency === null ? {} : { potency },
  );
}

const row = (potency: Parameters<typeof view>[0]) => {
  const compound = view(potency);
  return Object.fromEntries(
    SUMMARY_COLUMNS.map((column) => [column.label, column.cell(compound, { rank: 3, cluster: 1 })]),
  );
};

test("report-summary.csv has the same 33 columns on every run, the customer's own columns not among them", () => {
  assert.equal(SUMMARY_COLUMNS.length, 33);
  assert.deepEqual(
    SUMMARY_COLUMNS.slice(0, 9).map((column) => column.label),
    [
      "Rank",
      "Candidate",
      "Name",
      "Status",
      "Score",
      "Confidence",
      "pActivity (assays_csv)",
      "pActivity relation",
      "Docking score (kcal/mol)",
    ],
  );
  assert.ok(!SUMMARY_COLUMNS.some((column) => column.label === "series"));
});

test("a censored potency keeps its qualifier in pActivity terms beside the bound; an exact one reads measured", () => {
  const censored = row({ p_activity: 4, relation: "<", rows: 1 });
  assert.equal(censored["pActivity (assays_csv)"], 4);
  assert.equal(censored["pActivity relation"], "<");
  assert.equal(row({ p_activity: 8.92, relation: "=", rows: 2 })["pActivity relation"], "measured");
  assert.equal(row({ p_activity: 9, relation: ">=", rows: 1 })["pActivity relation"], "≥");
  const none = row(null);
  assert.equal(none["pActivity (assays_csv)"], null);
  assert.equal(none["Docking score (kcal/mol)"], null);
});

test("the model calls read as the card shows them, unknown when a model did not run; values as the table rounds them", () => {
  const cells = row(null);
  assert.equal(cells["hERG blocker"], "no (p 0.04)");
  assert.equal(cells["Ames mutagen"], "uncertain (p 0.50)");
  assert.equal(cells["P-gp inhibitor"], "yes (p 0.71)");
  assert.equal(cells["DILI concern"], "unknown");
  assert.equal(cells["CYP3A4 inhibitor"], "unknown");
  assert.equal(cells["Caco-2 log Papp (cm/s)"], -6.12);
  assert.equal(cells.MW, 454.4);
  assert.equal(cells.WLOGP, -0.34);
  assert.equal(cells.Rank, 3);
  assert.equal(cells["Parent InChIKey"], "FBOZXECLQNJBKD-ZDUSSCGKSA-N");
});
