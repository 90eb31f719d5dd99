import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findingsOfEveryModule } from "../../test/support/every-module.ts";
import type { AdmetFinding } from "../admet/admet-predictions.ts";
import type { CypFinding } from "../admet/cyp-assessment.ts";
import type { ClinicalPrecedentFinding } from "../clinical/clinical-precedent-prior.ts";
import type { MolecularLogicFinding } from "../molecular-logic.ts";
import type { ReadinessFinding } from "../readiness/wetlab-readiness.ts";
import type { SolubilityFinding } from "../solubility/solubility-assessment.ts";
import type { ToxicityProfileFinding } from "../toxicity/toxicity-profile.ts";
import type { UncertaintyFinding } from "../uncertainty/uncertainty-quantification.ts";
import type { CompoundClass } from "./compound-class.ts";

/**
 * Issue 24 item 2: the non-drug-like inputs a reviewing chemist tried (siloxanes ranked 1st and 2nd,
 * As2O3 "GI absorption high", cisplatin "BBB permeant", ferrocene cut to cyclopentadienide, Li2CO3
 * cut to carbonate), each with the class it must get; organic controls beside them.
 */
const CASES: readonly { name: string; smiles: string; expected: CompoundClass; parent?: string }[] = [
  {
    name: "octamethyltrisiloxane",
    smiles: "C[Si](C)(C)O[Si](C)(C)O[Si](C)(C)C",
    expected: "non_druglike_elements",
  },
  { name: "tetraethyl orthosilicate", smiles: "CCO[Si](OCC)(OCC)OCC", expected: "non_druglike_elements" },
  { name: "arsenic trioxide", smiles: "O=[As]O[As]=O", expected: "inorganic" },
  { name: "cisplatin", smiles: "N[Pt](N)(Cl)Cl", expected: "metal_complex" },
  { name: "ferrocene, ionic", smiles: "[CH-]1C=CC=C1.[CH-]1C=CC=C1.[Fe+2]", expected: "organometallic" },
  {
    name: "ferrocene, covalent",
    smiles: "C12=C3C4=C5C1[Fe]23451234C5C1=C2C3=C45",
    expected: "organometallic",
  },
  { name: "lithium carbonate", smiles: "[Li+].[Li+].[O-]C([O-])=O", expected: "inorganic" },
  { name: "sodium chloride", smiles: "[Na+].[Cl-]", expected: "inorganic" },
  { name: "potassium cyanide", smiles: "[K+].[C-]#N", expected: "inorganic" },
  { name: "carbon dioxide", smiles: "O=C=O", expected: "inorganic" },
  { name: "mercury(II) chloride", smiles: "Cl[Hg]Cl", expected: "inorganic" },
  { name: "tetraborane", smiles: "B1B2B1B2", expected: "inorganic" },
  { name: "tributyltin chloride", smiles: "CCCC[Sn](Cl)(CCCC)CCCC", expected: "organometallic" },
  { name: "methylmercury chloride", smiles: "C[Hg]Cl", expected: "organometallic" },
  { name: "tributylborane", smiles: "CCCCB(CCCC)CCCC", expected: "non_druglike_elements" },
  { name: "ebselen", smiles: "O=C1c2ccccc2[Se]N1c1ccccc1", expected: "non_druglike_elements" },
  { name: "phenylarsonic acid", smiles: "O[As](=O)(O)c1ccccc1", expected: "non_druglike_elements" },
  { name: "chloro(triethylphosphine)gold", smiles: "CCP(CC)(CC)[Au]Cl", expected: "metal_complex" },
  {
    name: "ferrous gluconate",
    smiles: "O=C([O-])C(O)C(O)C(O)C(O)CO.O=C([O-])C(O)C(O)C(O)C(O)CO.[Fe+2]",
    expected: "metal_complex",
  },
  {
    name: "diclofenac sodium",
    smiles: "[Na+].[O-]C(=O)Cc1ccccc1Nc1c(Cl)cccc1Cl",
    expected: "organic_salt",
    parent: "O=C(O)Cc1ccccc1Nc1c(Cl)cccc1Cl",
  },
  { name: "propranolol hydrochloride", smiles: "Cl.CC(C)NCC(O)COc1cccc2ccccc12", expected: "organic_salt" },
  { name: "aspirin", smiles: "CC(=O)Oc1ccccc1C(=O)O", expected: "organic" },
];

const ORGANIC: ReadonlySet<CompoundClass> = new Set(["organic", "organic_salt"]);

/** Every implemented module's finding of each case, as the runner builds them (registry order). */
const runAll = () => findingsOfEveryModule(CASES);

describe("compound-class gate (issue 24 item 2)", async () => {
  const all = await runAll();
  const finding = <T>(at: number, module: string) => all[at]?.get(module) as T;

  for (const [at, c] of CASES.entries()) {
    const logic = () => finding<MolecularLogicFinding>(at, "molecular_logic");
    it(`${c.name} is ${c.expected}`, () => {
      assert.equal(logic().status, "parsed");
      assert.equal(logic().compound_class, c.expected, logic().compound_class_reason ?? "");
      assert.ok((logic().compound_class_reason ?? "").length > 0);
    });

    if (ORGANIC.has(c.expected)) {
      it(`${c.name}: every model speaks for it (in domain of the class gate)`, () => {
        const admet = finding<AdmetFinding>(at, "admet_predictions");
        assert.equal(admet.in_domain, true);
        assert.notEqual(admet.boiled_egg, null);
        assert.notEqual(finding<SolubilityFinding>(at, "solubility_assessment").log_s, null);
        assert.notEqual(
          finding<ReadinessFinding>(at, "wetlab_priority_and_readiness_determiner").readiness_score,
          null,
        );
        if (c.parent !== undefined) assert.equal(logic().parent_smiles, c.parent);
      });
      continue;
    }

    it(`${c.name}: no BBB, GI, solubility, tox or readiness value is given as an in-domain finding`, () => {
      const admet = finding<AdmetFinding>(at, "admet_predictions");
      assert.equal(admet.in_domain, false);
      assert.match(admet.reason ?? "", new RegExp(`out_of_domain: compound_class ${c.expected}`));
      assert.equal(admet.boiled_egg, null);
      assert.equal(admet.qed, null);
      assert.equal(admet.bioavailability_score, null);
      assert.equal(admet.logd74, null);
      assert.ok(admet.raw_out_of_domain !== null, "the raw estimates are kept, labelled, for audit");
      const sol = finding<SolubilityFinding>(at, "solubility_assessment");
      assert.equal(sol.log_s, null);
      assert.equal(sol.solubility_class, null);
      assert.equal(sol.in_domain, false);
      assert.match(sol.reason ?? "", /out_of_domain/);
      const tox = finding<ToxicityProfileFinding>(at, "toxicity_profile").tox21_fingerprint_model;
      assert.equal(tox?.in_domain, false);
      assert.deepEqual(tox?.probabilities, {});
      const cyp = finding<CypFinding>(at, "cyp_assessment");
      assert.deepEqual(cyp.flagged, []);
      for (const output of Object.values(cyp.isoforms ?? {})) assert.equal(output.in_domain, false);
      const clin = finding<ClinicalPrecedentFinding>(at, "clinical_precedent_prior");
      assert.equal(clin.ct_tox_probability, null);
      assert.equal(clin.ct_tox_in_domain, false);
      assert.equal(finding<UncertaintyFinding>(at, "uncertainty_quantification").estimates, null);
      const readiness = finding<ReadinessFinding>(at, "wetlab_priority_and_readiness_determiner");
      assert.equal(readiness.readiness_score, null, "never ranked as ready");
      assert.ok((readiness.coverage ?? 1) < 1, "the out-of-domain estimates count as missing evidence");
      assert.match(readiness.reason ?? "", /out_of_domain/);
    });

    if (c.expected !== "non_druglike_elements")
      it(`${c.name}: nothing is salt-stripped and no parent is invented`, () => {
        assert.deepEqual(logic().stripped_fragments, []);
        assert.equal(logic().parent_smiles, logic().canonical_smiles);
        assert.equal(logic().parent_neutralised, false);
      });
  }
});
