import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ofParsed } from "../../test/support/nci-set.ts";
import { loadRDKit, type RDKit } from "../rdkit.ts";
import { chooseParent, type ParentChoice } from "./choose-parent.ts";

const parentOf = (smiles: string): Promise<ParentChoice> =>
  ofParsed(smiles, (rdkit, mol) => chooseParent(rdkit, mol));

function canonical(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol);
  try {
    return mol.get_smiles();
  } finally {
    mol.delete();
  }
}

// Issue 10 item 3: the NCI records where "largest fragment" chose the counterion.
describe("honest parents: the counterion is never the parent", () => {
  it("NCI-3802 (methylhydrazine sulfate): sulfuric acid is stripped, methylhydrazine kept", async () => {
    const choice = await parentOf("CNN.OS(O)(=O)=O");
    assert.equal(choice.parent_smiles, "CNN");
    assert.deepEqual(choice.stripped, ["[S](=O)(=O)(O)O"]);
    assert.equal(choice.parent_ambiguous, false);
  });

  it("NCI-3423 (a quinacrine mustard pamoate): pamoic acid is stripped", async () => {
    const rdkit = await loadRDKit();
    const choice = await parentOf(
      "CC(CCCN(CCCl)CCCl)NC1=C2C=CC(=CC2=NC=C1)Cl.OC(=O)C3=C(O)C(=C4C=CC=CC4=C3)CC5=C6C=CC=CC6=CC(=C5O)C(O)=O",
    );
    assert.equal(choice.parent_smiles, canonical(rdkit, "CC(CCCN(CCCl)CCCl)NC1=C2C=CC(=CC2=NC=C1)Cl"));
    assert.deepEqual(choice.stripped, ["Pamoate (embonate)"]);
  });

  it("NCI-2702 (a methoxyphenylpyridine picrate): picric acid is stripped", async () => {
    const rdkit = await loadRDKit();
    const choice = await parentOf(
      "COC1=CC=C(C=C1)C2=CC=CC=N2.OC3=C(C=C(C=C3[N+]([O-])=O)[N+]([O-])=O)[N+]([O-])=O",
    );
    assert.equal(choice.parent_smiles, canonical(rdkit, "COC1=CC=C(C=C1)C2=CC=CC=N2"));
    assert.deepEqual(choice.stripped, ["Picrate"]);
  });

  it("a quaternary ammonium tetraphenylborate: the borate is stripped, the cation kept", async () => {
    const rdkit = await loadRDKit();
    const choice = await parentOf("C[N+](C)(C)Cc1ccccc1.[B-](c1ccccc1)(c1ccccc1)(c1ccccc1)c1ccccc1");
    assert.equal(choice.parent_smiles, canonical(rdkit, "C[N+](C)(C)Cc1ccccc1"));
    assert.deepEqual(choice.stripped, ["Tetraphenylborate"]);
  });

  it("two different fragments of equal size are flagged parent_ambiguous (NCI-1610)", async () => {
    const choice = await parentOf(
      "CC(C)CCCC(C)C1CCC2(C)C3=CCC4C(C)(C)C(O)CCC4(C)C3=CCC12C.CC(CCC=C(C)C)C5CCC6(C)C7=C(CCC56C)C8(C)CCC(O)C(C)(C)C8CC7",
    );
    assert.equal(choice.parent_ambiguous, true);
  });

  it("two copies of the same fragment are not ambiguous", async () => {
    const choice = await parentOf("CC(C)C1CCC(O)CC1.CC(C)C1CCC(O)CC1");
    assert.equal(choice.parent_ambiguous, false);
    assert.equal(choice.parent_smiles, "CC(C)C1CCC(O)CC1");
  });

  it("an input with no carbon is flagged no_organic_parent and kept whole (NCI-1301)", async () => {
    const choice = await parentOf("N[Co+3](N)(N)(N)(N)N.Cl[Cd](Cl)(Cl)(Cl)Cl");
    assert.equal(choice.no_organic_parent, true);
    assert.equal(choice.fragment_count, 2);
  });

  it("when every fragment is a listed salt, the largest organic one is the parent (sodium acetate)", async () => {
    const choice = await parentOf("CC(=O)[O-].[Na+]");
    assert.equal(choice.parent_smiles, "CC(=O)[O-]");
    assert.equal(choice.no_organic_parent, false);
  });

  it("a single-fragment molecule is its own parent even when it is on a list (ethanol)", async () => {
    const choice = await parentOf("CCO");
    assert.deepEqual(choice, {
      parent_smiles: "CCO",
      fragment_count: 1,
      stripped: [],
      parent_ambiguous: false,
      no_organic_parent: false,
    });
  });
});
