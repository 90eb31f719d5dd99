import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type PreparedCompound, prepareCompound } from "../prepare-compound.ts";
import { loadRDKit, type RDKit } from "../rdkit.ts";
import { molDescriptors } from "./mol-memo.ts";
import { releaseParentMol, withParentMol } from "./with-parent-mol.ts";

const row = (smiles: string) => ({ index: 0, line: 1, candidateId: "c1", name: null, smiles, metadata: {} });

function prepared(rdkit: RDKit, smiles: string): PreparedCompound & { ok: true } {
  const compound = prepareCompound(rdkit, row(smiles));
  assert.ok(compound.ok);
  return compound;
}

/** get_descriptors of the parent as an analyzer re-reads it, from its canonical SMILES. */
function rereadDescriptors(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol);
  try {
    return mol.get_descriptors();
  } finally {
    mol.delete();
  }
}

// Issue 42 item 2: the parent's descriptor JSON is computed once per compound when it can be
// handed on byte for byte, and only then.
describe("the parent's descriptors carried from preparation to the analysis", () => {
  it("a salt's parent, read from its own canonical SMILES, carries the JSON an analyzer's re-read gives", async () => {
    const rdkit = await loadRDKit();
    const compound = prepared(rdkit, "CC(=O)Oc1ccccc1C(=O)O.[Na+].[Cl-]");
    assert.equal(compound.chem.fragment_count, 3);
    assert.equal(compound.parentDescriptors, rereadDescriptors(rdkit, compound.chem.parent_smiles));
  });

  it("an input already in RDKit's canonical SMILES carries the JSON too", async () => {
    const rdkit = await loadRDKit();
    const compound = prepared(rdkit, "CCO");
    assert.equal(compound.chem.parent_smiles, "CCO");
    assert.equal(compound.parentDescriptors, rereadDescriptors(rdkit, "CCO"));
  });

  it("an input written in another atom order carries none (its descriptors' last bits may differ)", async () => {
    const rdkit = await loadRDKit();
    const compound = prepared(rdkit, "OC(=O)c1ccccc1");
    assert.notEqual(compound.chem.parent_smiles, "OC(=O)c1ccccc1");
    assert.equal(compound.parentDescriptors, undefined);
  });

  it("the shared parent reads the carried JSON instead of computing its own", async () => {
    const rdkit = await loadRDKit();
    const compound = prepared(rdkit, "CCO");
    releaseParentMol();
    // (rdkit is not enumerable: a copy names it)
    const carried = { ...compound, rdkit, parentDescriptors: JSON.stringify({ exactmw: 1234.5 }) };
    assert.equal(
      withParentMol(carried, (mol) => molDescriptors(mol).exactmw),
      1234.5,
    );
    releaseParentMol();
    const { parentDescriptors: _none, ...plain } = compound;
    const computed = withParentMol({ ...plain, rdkit }, (mol) => molDescriptors(mol).exactmw);
    assert.ok(Math.abs((computed ?? 0) - 46.042) < 0.001);
    releaseParentMol();
  });
});
