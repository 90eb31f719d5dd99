import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { REACTION_SITE_MOLECULES, storedNative } from "../../test/support/native-oracles.ts";
import { assertNciInCi, NCI_5K, nciMissing, readNci } from "../../test/support/nci-set.ts";
import { loadRDKit } from "../rdkit.ts";
import { ENUMERATION_BOUNDS, ruleTemplateMatches } from "./candidate-sites.ts";
import { METABOLISM_RULES } from "./metabolism-rules.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

describe("metabolite_prediction candidate sites", () => {
  assertNciInCi();
  it("pairs product sets with atoms as native RDKit's react_atom_idx does (NCI first 1,000)", {
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<Record<string, number[][]>>("reaction-sites");
    let compared = 0;
    let equal = 0;
    let withSites = 0;
    const differing: string[] = [];
    for (const [smiles, id] of readNci(readFileSync(NCI_5K, "utf8"))) {
      const expected = native[id];
      if (expected === undefined) continue;
      const mol = rdkit.get_mol(smiles);
      if (!mol?.is_valid()) {
        mol?.delete();
        continue;
      }
      try {
        for (const rule of METABOLISM_RULES) {
          const ours = ruleTemplateMatches(rdkit, mol, rule.id, ENUMERATION_BOUNDS.perRule);
          const theirs = expected[rule.id] ?? [];
          compared++;
          if (theirs.length > 0) withSites++;
          if (JSON.stringify(ours) === JSON.stringify(theirs)) equal++;
          else if (differing.length < 5) differing.push(`${id} ${rule.id}`);
        }
      } finally {
        mol.delete();
      }
    }
    console.log(
      `# metabolism pairing: ${equal}/${compared} (molecule, rule) lists identical (${withSites} with sites); first differing ${differing.join(", ")}`,
    );
    assert.ok(compared >= 900 * METABOLISM_RULES.length, `compared ${compared}`);
    assert.ok(withSites >= 1000, `only ${withSites} (molecule, rule) pairs with sites`);
    assert.ok(equal / compared >= 0.995, `identical for ${equal}/${compared}`);
    assertGeneratedBlock(
      DOCS,
      "metabolism-react-atom-idx-native",
      "packages/science/src/metabolism/candidate-sites.validation.test.ts",
      "- **Against native RDKit.** The atoms paired with each product set equal native RDKit's " +
        `\`react_atom_idx\` for ${n(equal)}/${n(compared)} (molecule, rule) pairs on the first ${n(REACTION_SITE_MOLECULES)} NCI molecules.`,
    );
  });
});
