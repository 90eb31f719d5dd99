import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { storedNative } from "../../test/support/native-oracles.ts";
import { assertNciInCi, NCI_5K, nciMissing, readNci } from "../../test/support/nci-set.ts";
import { loadRDKit, type RDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "./murcko-scaffold.ts";

/** RDKit WebAssembly's canonical SMILES of a SMILES (both sides compared in the same canonical form). */
function canonical(rdkit: RDKit, smiles: string): string | null {
  if (smiles === "") return "";
  const mol = rdkit.get_mol(smiles);
  try {
    return mol?.is_valid() ? mol.get_smiles() : null;
  } finally {
    mol?.delete();
  }
}

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

describe("Murcko scaffold (Bemis & Murcko 1996) from RDKit WebAssembly's molecule graph", () => {
  assertNciInCi();
  it("the same scaffold as native MurckoScaffold.MurckoScaffoldSmiles on ≥ 99.5% of NCI first_5K, as docs/science.md states", {
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<string | null>("murcko");
    let compared = 0;
    const differ: string[] = [];
    const differIds: string[] = [];
    for (const [smiles, id] of readNci(readFileSync(NCI_5K, "utf8"))) {
      const expected = native[id];
      if (expected === undefined) continue; // native RDKit does not parse it
      const mol = rdkit.get_mol(smiles);
      if (!mol?.is_valid()) {
        mol?.delete();
        continue;
      }
      compared++;
      let ours: string | null;
      try {
        ours = murckoScaffoldSmiles(rdkit, mol);
      } catch {
        ours = null;
      } finally {
        mol.delete();
      }
      const reference = expected === null ? null : canonical(rdkit, expected);
      if (ours === null || reference === null || ours !== reference) {
        differ.push(`${id}: ours ${ours} native ${expected}`);
        differIds.push(`NCI-${id}`);
      }
    }
    const agreement = (compared - differ.length) / compared;
    console.log(
      `Murcko scaffolds: ${compared - differ.length}/${compared} identical (${(agreement * 100).toFixed(2)}%)`,
    );
    for (const line of differ.slice(0, 20)) console.log(`  ${line}`);
    assert.ok(compared > 4900, `compared ${compared}`);
    assert.ok(agreement >= 0.995, differ.slice(0, 10).join("\n"));
    const differing = differIds.length === 0 ? "" : `; differing: ${differIds.join(", ")}`;
    assertGeneratedBlock(
      DOCS,
      "murcko-native",
      "packages/science/src/scaffold/murcko-scaffold.validation.test.ts",
      "- **Validation.** Murcko scaffolds identical to native RDKit 2022.09 " +
        `\`MurckoScaffold.MurckoScaffoldSmiles\` on **${n(compared - differ.length)} of ${n(compared)}** NCI first_5K ` +
        `molecules (both compared as RDKit WebAssembly canonical SMILES${differing}).`,
    );
  });
});
