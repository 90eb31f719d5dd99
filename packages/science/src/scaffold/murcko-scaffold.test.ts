import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "./murcko-scaffold.ts";

async function scaffoldOf(smiles: string): Promise<string> {
  const rdkit = await loadRDKit();
  const mol = rdkit.get_mol(smiles);
  if (mol === null || !mol.is_valid()) assert.fail(`RDKit does not parse ${smiles}`);
  try {
    return murckoScaffoldSmiles(rdkit, mol);
  } finally {
    mol.delete();
  }
}

describe("Murcko scaffold (Bemis & Murcko 1996) from RDKit WebAssembly's molecule graph", () => {
  it("keeps rings and linkers, drops side chains, keeps exocyclic double bonds", async () => {
    // Bemis & Murcko's definition, on molecules whose scaffold is plain to a chemist.
    assert.equal(await scaffoldOf("CC(=O)Oc1ccccc1C(=O)O"), "c1ccccc1"); // aspirin
    assert.equal(await scaffoldOf("CCCCCC"), ""); // no ring, no scaffold
    assert.equal(await scaffoldOf("c1ccccc1CCc1ccncc1C"), "c1ccc(CCc2ccncc2)cc1"); // linker kept, methyl gone
    assert.equal(await scaffoldOf("O=C1CCCN1CC"), "O=C1CCCN1"); // lactam C=O kept
    assert.equal(await scaffoldOf("Cn1ccc2ccccc21"), "c1ccc2[nH]ccc2c1"); // N-methyl indole: [nH]
    assert.equal(await scaffoldOf("CS(=O)(=O)c1ccc(S(=O)(=O)N2CCCC2)cc1"), "O=S(=O)(c1ccccc1)N1CCCC1");
  });
});
