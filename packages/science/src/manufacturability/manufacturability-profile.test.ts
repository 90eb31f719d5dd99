import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ofParsed } from "../../test/support/nci-set.ts";
import { type ManufacturabilityProfile, manufacturabilityProfile } from "./manufacturability-profile.ts";

const profileOf = (smiles: string): Promise<ManufacturabilityProfile> =>
  ofParsed(smiles, (rdkit, mol) => manufacturabilityProfile(rdkit, mol));

describe("manufacturability counts", () => {
  it("a spiro bicycle fused to a bridged ring is one ring system with its spiro and bridgehead atoms", async () => {
    const p = await profileOf("C1CC2(CCC1)CCC1CCC2C1");
    assert.equal(p.ring_systems, 1);
    assert.equal(p.spiro_atoms, 1);
    assert.equal(p.bridgehead_atoms, 2);
    assert.equal(p.unspecified_stereocentres, p.stereocentres);
  });

  it("cyclododecane is a macrocycle, cycloundecane is not; biphenyl has two ring systems", async () => {
    assert.equal((await profileOf("C1CCCCCCCCCCC1")).macrocycles, 1);
    assert.equal((await profileOf("C1CCCCCCCCCC1")).macrocycles, 0);
    assert.equal((await profileOf("c1ccccc1-c1ccccc1")).ring_systems, 2);
  });

  it("flags a metal and a covalent NIBR motif in words", async () => {
    const p = await profileOf("C=CC(=O)Nc1ccc(cc1)[Sn](C)(C)C");
    assert.deepEqual(p.metals, ["Sn"]);
    assert.ok(p.flags.includes("contains Sn: metal content to control"), p.flags.join("; "));
    assert.ok(
      p.flags.some((flag) => flag.startsWith("reactive motif")),
      p.flags.join("; "),
    );
  });
});
