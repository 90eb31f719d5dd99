import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { admetPredictions } from "./admet-predictions.ts";
import { boiledEggVerdict, EGG_PGP_LAYER, PERMANENT_CHARGE_VETO } from "./boiled-egg-verdict.ts";
import { tdcModel } from "./tdc-model.ts";

// Quaternary ammonium drugs as supplied (bromide salts), parents as in DrugCentral (struct_id 1897,
// 2330, 4302): orally poorly absorbed and kept out of the brain by their permanent charge.
const QUATERNARY = {
  neostigmine: "CN(C)C(=O)OC1=CC(=CC=C1)[N+](C)(C)C.[Br-]",
  pyridostigmine: "CN(C)C(=O)OC1=C[N+](C)=CC=C1.[Br-]",
  glycopyrronium: "C[N+]1(C)CCC(C1)OC(=O)C(O)(C1CCCC1)C1=CC=CC=C1.[Br-]",
} as const;

describe("BOILED-Egg as published, and honest (issue 36 item 3)", () => {
  it("neostigmine, pyridostigmine and glycopyrronium are GI low and BBB no with the permanent-charge reason, though the ellipses alone admit them", async () => {
    const rdkit = await loadRDKit();
    const admet = inOneThread(admetPredictions);
    const passive: string[] = [];
    for (const [name, smiles] of Object.entries(QUATERNARY)) {
      const compound = prepareCompound(rdkit, {
        index: 0,
        line: 1,
        candidateId: name,
        name,
        smiles,
        metadata: {},
      });
      assert.ok(
        compound.ok && compound.chem.permanent_charge,
        `${name}: molecular_logic flags the permanent charge`,
      );
      const egg = admet.analyze(compound).boiled_egg;
      assert.ok(egg !== null, name);
      assert.equal(egg.gi_absorption, "low", name);
      assert.equal(egg.bbb_permeant, false, name);
      assert.equal(egg.region, "grey", name);
      assert.equal(egg.veto, PERMANENT_CHARGE_VETO, name);
      passive.push(egg.passive_region);
    }
    // Without the veto the egg called them absorbed (and two brain-penetrant): the veto decides.
    assert.ok(
      passive.every((region) => region !== "grey"),
      `ellipse regions ${passive.join(", ")}`,
    );
  });

  it("a neutral parent keeps the ellipses' call and no veto; the free tertiary amine of the same shape is not vetoed", async () => {
    const rdkit = await loadRDKit();
    const admet = inOneThread(admetPredictions);
    // Neostigmine's tertiary-amine analogue (a base, neutralised as a parent): passive permeation applies.
    const smiles = "CN(C)C(=O)OC1=CC(=CC=C1)N(C)C";
    const compound = prepareCompound(rdkit, {
      index: 0,
      line: 1,
      candidateId: "t",
      name: null,
      smiles,
      metadata: {},
    });
    assert.ok(compound.ok && !compound.chem.permanent_charge);
    const egg = admet.analyze(compound).boiled_egg;
    assert.ok(egg !== null);
    assert.equal(egg.veto, null);
    assert.equal(egg.region, egg.passive_region);
    assert.equal(egg.gi_absorption, "high");
  });

  it("the P-gp layer is labelled inhibition (Broccatelli), never substrate, and unknown out of the P-gp model's domain", async () => {
    assert.match(EGG_PGP_LAYER, /^P-gp inhibitor \(Broccatelli/);
    assert.match(EGG_PGP_LAYER, /not the paper's P-gp substrate/);
    const unknown = { what: EGG_PGP_LAYER, call: "unknown", probability: null } as const;
    assert.deepEqual(boiledEggVerdict(38, 3.2, false, unknown).pgp, unknown);
    const rdkit = await loadRDKit();
    const admet = inOneThread(admetPredictions);
    // Loperamide (DrugCentral 1599) and cisplatin (outside the organic classes: no P-gp finding).
    for (const [smiles, inDomain] of [
      ["CN(C)C(=O)C(CCN1CCC(O)(CC1)C1=CC=C(Cl)C=C1)(C1=CC=CC=C1)C1=CC=CC=C1", true],
      ["N.N.Cl[Pt]Cl", false],
    ] as const) {
      const compound = prepareCompound(rdkit, {
        index: 0,
        line: 1,
        candidateId: "c",
        name: null,
        smiles,
        metadata: {},
      });
      assert.ok(compound.ok);
      const finding = admet.analyze(compound);
      const pgp = finding.pgp;
      const egg = finding.boiled_egg ?? finding.raw_out_of_domain?.boiled_egg;
      assert.ok(egg !== null && egg !== undefined);
      assert.equal(egg.pgp.what, EGG_PGP_LAYER);
      if (!tdcModel("pgp").file.adopted || pgp === undefined || pgp === null || !("probability" in pgp)) {
        assert.equal(inDomain && tdcModel("pgp").file.adopted, false);
        assert.equal(egg.pgp.call, "unknown");
        assert.equal(egg.pgp.probability, null);
      } else {
        assert.ok(inDomain);
        assert.equal(
          egg.pgp.call,
          pgp.call === "positive" ? "inhibitor" : pgp.call === "negative" ? "non_inhibitor" : "uncertain",
        );
        assert.equal(egg.pgp.probability, pgp.probability);
      }
    }
  });
});
