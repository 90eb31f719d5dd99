import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ofParsed } from "../../test/support/nci-set.ts";
import { computeQed, qedProperties } from "./qed.ts";

const qedOf = (smiles: string): Promise<number> =>
  ofParsed(smiles, (rdkit, mol) => computeQed(qedProperties(rdkit, mol)));

describe("QED (Bickerton 2012)", () => {
  // Values printed (truncated) in RDKit's QED.py doctests, from Bickerton's original implementation.
  it("reproduces the reference values of three molecules from the QED paper", async () => {
    assert.match(String(await qedOf("N=C(CCSCc1csc(N=C(N)N)n1)NS(N)(=O)=O")), /^0\.253/);
    assert.match(String(await qedOf("CNC(=NCCSCc1nc[nH]c1C)NC#N")), /^0\.234/);
    assert.match(String(await qedOf("CCCCCNC(=N)NN=Cc1c[nH]c2ccc(CO)cc12")), /^0\.234/);
  });
});
