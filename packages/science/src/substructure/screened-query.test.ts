import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit, type Mol } from "../rdkit.ts";
import { compileScreenedQuery, hasMatch, patternFingerprint } from "./screened-query.ts";

/** Counts the graph matches `hasMatch` asks of this molecule. */
function counted(mol: Mol): { mol: Mol; calls: () => number } {
  let calls = 0;
  const original = mol.get_substruct_match.bind(mol);
  Object.defineProperty(mol, "get_substruct_match", {
    value: (query: Mol) => {
      calls++;
      return original(query);
    },
  });
  return { mol, calls: () => calls };
}

// Issue 42 item 2: QED's alerts, Brenk's and NIBR's share SMARTS and are asked of one shared parent.
describe("a screened query's answer per molecule and SMARTS", () => {
  it("the same SMARTS compiled twice is matched once on one molecule, with the same answer", async () => {
    const rdkit = await loadRDKit();
    const first = compileScreenedQuery(rdkit, "C(=O)[OH]");
    const again = compileScreenedQuery(rdkit, "C(=O)[OH]");
    const parent = rdkit.get_mol("CC(=O)Oc1ccccc1C(=O)O");
    assert.ok(parent);
    const { mol, calls } = counted(parent);
    try {
      const fingerprint = patternFingerprint(mol);
      assert.equal(hasMatch(mol, fingerprint, first), true);
      assert.equal(hasMatch(mol, fingerprint, again), true);
      assert.equal(calls(), 1);
    } finally {
      mol.delete();
      first.query.delete();
      again.query.delete();
    }
  });

  it("another molecule, or another SMARTS, is matched afresh", async () => {
    const rdkit = await loadRDKit();
    const acid = compileScreenedQuery(rdkit, "C(=O)[OH]");
    const ester = compileScreenedQuery(rdkit, "C(=O)O[#6]");
    const one = rdkit.get_mol("CC(=O)OCC(=O)O");
    const other = rdkit.get_mol("CC(=O)OCC(=O)OC");
    assert.ok(one && other);
    const a = counted(one);
    const b = counted(other);
    try {
      assert.equal(hasMatch(a.mol, patternFingerprint(a.mol), acid), true);
      assert.equal(hasMatch(a.mol, patternFingerprint(a.mol), ester), true);
      assert.equal(a.calls(), 2);
      assert.equal(hasMatch(b.mol, patternFingerprint(b.mol), acid), false);
      assert.equal(hasMatch(b.mol, patternFingerprint(b.mol), ester), true);
      assert.equal(b.calls(), 2);
    } finally {
      for (const mol of [one, other, acid.query, ester.query]) mol.delete();
    }
  });
});
