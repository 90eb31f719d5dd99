import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { row } from "../../test/support/compound-row.ts";
import { assertNativeInCi, nativeMissing, runNative } from "../../test/support/native-rdkit.ts";
import type { CompoundFinding } from "../analysis-module.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { DRUGCENTRAL_SOURCE_FILE, drugCentralIndex } from "./drugcentral-index.ts";
import { safetyPanel } from "./safety-panel.ts";
import { targetBiologyRisk } from "./target-biology-risk.ts";

const PROPRANOLOL = "CC(C)NCC(O)COc1cccc2ccccc12";
// Not DrugCentral drugs themselves (or not their parents): the neighbours are other drugs.
const FIXTURES = [
  "COc1ccc2[nH]c(S(=O)Cc3ncc(C)c(OC)c3C)nc2c1", // omeprazole
  "O=C(O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O", // ciprofloxacin
  "CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1", // losartan
  "CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O", // warfarin
  "CC(C)C(=O)Nc1ccc(Cl)c(C(F)(F)F)c1", // a flutamide analogue
];

describe("target_biology_risk", () => {
  assertNativeInCi();

  it("without targets.csv the compound side still runs and the target side is missing_input", async () => {
    const rdkit = await loadRDKit();
    for (const analyzer of [
      inOneThread(targetBiologyRisk),
      inOneThread(targetBiologyRisk, { targets: null }),
    ]) {
      const finding = analyzer.analyze(prepareCompound(rdkit, row(1, PROPRANOLOL)), new Map());
      assert.equal(finding.target_side, "missing_input");
      assert.equal(finding.status, "assessed");
      assert.ok((finding.off_target_liabilities?.length ?? 0) > 0);
      const summary = analyzer.finish();
      assert.equal(summary.target_side.status, "missing_input");
      assert.match(summary.target_side.reason ?? "", /no targets\.csv staged/);
      assert.deepEqual(summary.target_side.targets, []);
    }
    assert.deepEqual(targetBiologyRisk.requiredInputs, ["portfolio"]);
    assert.deepEqual(targetBiologyRisk.optionalInputs, ["targets"]);
  });

  it("a staged target on a panel comes with its organ systems, adverse effects by direction and PubMed id; one off the panels is said to be off them", () => {
    const analyzer = inOneThread(targetBiologyRisk, {
      targets: [
        { line: 2, gene_symbol: "KCNH2", uniprot_id: null, name: null },
        { line: 3, gene_symbol: null, uniprot_id: "P35367", name: "histamine H1" },
        { line: 4, gene_symbol: "egfr", uniprot_id: null, name: null },
        { line: 5, gene_symbol: "ABL1", uniprot_id: "P00519", name: null },
      ],
    });
    const { target_side: side } = analyzer.finish();
    assert.equal(side.status, "assessed");
    assert.equal(side.on_safety_panel, 3);
    const [herg, h1, egfr, abl1] = side.targets;
    assert.equal(herg?.panel, "bowes2012");
    assert.deepEqual(herg?.organ_systems, ["cardiovascular system"]);
    assert.deepEqual(herg?.adverse_effects_on_inhibition, ["prolongation of QT interval of ECG"]);
    assert.equal(herg?.pmid, "23197038");
    assert.match(herg?.citation ?? "", /Bowes et al\., Nat\. Rev\. Drug Discov\. 2012/);
    assert.equal(h1?.gene_symbol, "HRH1");
    assert.equal(h1?.name, "histamine H1");
    assert.ok((h1?.effects.length ?? 0) > 0, "Bowes targets carry the per-effect organ systems");
    assert.ok(h1?.effects.every((e) => e.direction === "activation" || e.direction.startsWith("inhibition")));
    assert.equal(egfr?.panel, "brennan2024");
    assert.equal(egfr?.pmid, "38773351");
    assert.ok(egfr?.adverse_effects_on_inhibition.includes("Skin rash"));
    assert.equal(abl1?.on_safety_panel, false);
    assert.match(abl1?.note ?? "", /not evidence that modulating it is safe/);
  });

  it("liabilities name neighbour drugs at or above the threshold; a staged target among them is marked on-target", async () => {
    const rdkit = await loadRDKit();
    const threshold = drugCentralIndex().file.validation.threshold;
    const analyzer = inOneThread(targetBiologyRisk, {
      targets: [{ line: 2, gene_symbol: "ADRB1", uniprot_id: null, name: null }],
    });
    const finding = analyzer.analyze(prepareCompound(rdkit, row(1, PROPRANOLOL)), new Map());
    assert.equal(finding.in_domain, true);
    assert.equal(finding.max_tanimoto, 1);
    assert.equal(finding.nearest_drugs?.[0]?.drug, "propranolol");
    const liabilities = finding.off_target_liabilities ?? [];
    const beta1 = liabilities.find((l) => l.gene_symbol === "ADRB1");
    assert.equal(beta1?.staged_target, true);
    assert.ok(liabilities.filter((l) => l.gene_symbol !== "ADRB1").every((l) => !l.staged_target));
    for (const liability of liabilities) {
      assert.ok(liability.neighbours.length > 0 && liability.neighbours.length <= 3);
      assert.ok(
        liability.neighbours.every((n) => n.tanimoto >= threshold - 0.0005),
        liability.gene_symbol,
      );
      assert.equal(liability.max_tanimoto, liability.neighbours[0]?.tanimoto);
      assert.ok(safetyPanel().some((t) => t.gene_symbol === liability.gene_symbol));
    }
    // Every named neighbour really lists the target in the index.
    const drugs = new Map(drugCentralIndex().file.drugs.map((d) => [d.struct_id, d]));
    for (const liability of liabilities)
      for (const n of liability.neighbours)
        assert.ok(
          drugs.get(n.struct_id)?.targets.includes(liability.gene_symbol),
          `${n.drug} ${liability.gene_symbol}`,
        );
  });

  it("reads hERG from toxicity_profile's herg key when it is there, and says why when it is not", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(targetBiologyRisk);
    const compound = prepareCompound(rdkit, row(1, PROPRANOLOL));
    const base: CompoundFinding = { candidate_id: "C1", evidence_id: "EID-toxicity_profile-000001" };
    const withHerg = new Map([
      ["toxicity_profile", { ...base, herg: { probability: 0.81, in_domain: true, model_id: "herg_model" } }],
    ]);
    assert.deepEqual(analyzer.analyze(compound, withHerg).herg, {
      status: "present",
      source: "toxicity_profile.herg",
      probability: 0.81,
      in_domain: true,
      model_id: "herg_model",
      reason: null,
    });
    const without = analyzer.analyze(compound, new Map([["toxicity_profile", base]])).herg;
    assert.equal(without.status, "missing");
    assert.match(without.reason ?? "", /no hERG model/);
    assert.match(analyzer.analyze(compound, new Map()).herg.reason ?? "", /toxicity_profile did not run/);
    assert.deepEqual(analyzer.finish().herg, { present: 1, missing: 2 });
  });

  it("an unparseable SMILES is not_assessed, an inorganic input gets no prediction, a far compound is out of domain", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(targetBiologyRisk);
    const bad = analyzer.analyze(prepareCompound(rdkit, row(1, "C1CC")), new Map());
    assert.equal(bad.status, "not_assessed");
    assert.equal(bad.off_target_liabilities, null);
    const salt = analyzer.analyze(prepareCompound(rdkit, row(2, "[Na+].[Cl-]")), new Map());
    assert.equal(salt.off_target_liabilities, null);
    assert.equal(salt.in_domain, false);
    assert.match(salt.reason ?? "", /out_of_domain/);
    const far = analyzer.analyze(prepareCompound(rdkit, row(3, "C1CCCCCCCCCCC1")), new Map());
    assert.equal(far.in_domain, false);
    assert.deepEqual(far.off_target_liabilities, []);
    assert.match(far.reason ?? "", /no prediction either way/);
    const summary = analyzer.finish();
    assert.equal(summary.not_assessed, 1);
    assert.equal(summary.panel_targets.bowes2012 + summary.panel_targets.brennan2024, 79);
  });

  it("the nearest DrugCentral drugs and their Tanimoto equal native RDKit's (standardised parents, Morgan bit vectors)", {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const { file } = drugCentralIndex();
    const native = runNative<Record<string, [number, number][]>>("safety-neighbours.py", [
      fileURLToPath(new URL(`../../data/${DRUGCENTRAL_SOURCE_FILE}`, import.meta.url)),
      JSON.stringify(file.drugs.map((d) => d.struct_id)),
      JSON.stringify(FIXTURES),
    ]);
    const analyzer = inOneThread(targetBiologyRisk);
    FIXTURES.forEach((smiles, i) => {
      const finding = analyzer.analyze(prepareCompound(rdkit, row(i + 1, smiles)), new Map());
      const expected = native[smiles] ?? [];
      assert.deepEqual(
        finding.nearest_drugs?.map((n) => n.struct_id),
        expected.map(([id]) => id),
        smiles,
      );
      for (const [k, n] of (finding.nearest_drugs ?? []).entries())
        assert.ok(Math.abs(n.tanimoto - (expected[k]?.[1] ?? -1)) < 0.0005, `${smiles}: ${n.tanimoto}`);
    });
  });
});
