import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { storedNative } from "../../test/support/native-oracles.ts";
import {
  assertNciInCi,
  eachParsedWithNative,
  NCI_5K,
  nciMissing,
  readNci,
} from "../../test/support/nci-set.ts";
import { loadRDKit } from "../rdkit.ts";
import { describeFragments } from "./choose-parent.ts";
import { RDKIT_SALTS } from "./salt-definitions.ts";

// Issue 10 item 3: the NCI records where "largest fragment" chose the counterion.

describe("salt stripping against native RDKit's SaltRemover", () => {
  assertNciInCi();
  it("strips the same heavy atoms as SaltRemover with Salts.txt on every multi-fragment NCI molecule", {
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<number>("salt-remover");
    const molecules = readNci(readFileSync(NCI_5K, "utf8")).filter(([smiles]) => smiles.includes("."));
    const differ: string[] = [];
    const compared = eachParsedWithNative(rdkit, molecules, native, (mol, expected, id) => {
      const stripped = describeFragments(rdkit, mol)
        .filter((f) => f.salt?.source === RDKIT_SALTS)
        .reduce((sum, f) => sum + f.heavyAtoms, 0);
      if (stripped !== expected) differ.push(`NCI-${id}: ${stripped} vs native ${expected}`);
    });
    assert.ok(compared >= 130, `compared ${compared} multi-fragment molecules`);
    assert.deepEqual(differ, []);
  });
});
