import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit, type Mol } from "../rdkit.ts";
import { chooseParent } from "./choose-parent.ts";
import { molSmiles } from "./mol-memo.ts";
import { neutraliseParent } from "./neutralise-parent.ts";

/** Counts how often the molecule's SMILES is written. */
function counted(mol: Mol): () => number {
  let calls = 0;
  const original = mol.get_smiles.bind(mol);
  Object.defineProperty(mol, "get_smiles", {
    value: (...args: Parameters<typeof original>) => {
      calls++;
      return original(...args);
    },
  });
  return () => calls;
}

// Issue 42 item 2: the preparation asked one input molecule for its SMILES up to four times.
describe("a molecule's canonical SMILES, once per Mol handle", () => {
  it("the parent choice and the neutraliser of one molecule write its SMILES once, the same text", async () => {
    const rdkit = await loadRDKit();
    const mol = rdkit.get_mol("OC(=O)c1ccccc1");
    assert.ok(mol);
    const calls = counted(mol);
    try {
      const choice = chooseParent(rdkit, mol);
      const neutral = neutraliseParent(rdkit, mol);
      assert.equal(molSmiles(mol), "O=C(O)c1ccccc1");
      assert.equal(choice.parent_smiles, "O=C(O)c1ccccc1");
      assert.equal(neutral.smiles, "O=C(O)c1ccccc1");
      assert.equal(calls(), 1);
    } finally {
      mol.delete();
    }
  });

  it("another handle of the same structure is asked afresh", async () => {
    const rdkit = await loadRDKit();
    const one = rdkit.get_mol("CCO");
    const two = rdkit.get_mol("OCC");
    assert.ok(one && two);
    const calls = counted(two);
    try {
      assert.equal(molSmiles(one), "CCO");
      assert.equal(molSmiles(two), "CCO");
      assert.equal(calls(), 1);
    } finally {
      one.delete();
      two.delete();
    }
  });
});
