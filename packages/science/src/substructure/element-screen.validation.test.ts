import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { loadRDKit } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import { nibrFilters } from "../toxicity/nibr-catalog.ts";
import { painsPatterns } from "../toxicity/pains-catalog.ts";
import { countElements, elementScreenOf, passesElementScreen } from "./element-screen.ts";

const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";

test("the element screen reads RDKit's query trees: AND narrows, OR widens, negation and wildcards leave it open", async () => {
  const rdkit = await loadRDKit();
  const screen = (smarts: string) => {
    const query = rdkit.get_qmol(smarts);
    assert.ok(query !== null);
    try {
      return elementScreenOf(query.get_json());
    } finally {
      query.delete();
    }
  };
  assert.deepEqual(screen("[N;R0]=[N;R0]C#N"), {
    atoms: 4,
    needs: [
      { elements: [7], count: 3 },
      { elements: [6], count: 1 },
    ],
  });
  assert.deepEqual(screen("[Cl,Br,I]c").needs, [
    { elements: [17, 35, 53], count: 1 },
    { elements: [6], count: 1 },
  ]);
  assert.deepEqual(screen("[!N]*").needs, []);
  assert.deepEqual(screen("[$(C=O)]").needs, [{ elements: [6], count: 1 }]);
  assert.deepEqual(screen("[N&X3,O]").needs, [{ elements: [7, 8], count: 1 }]);
});

// The reference is RDKit's own substructure match: over the PAINS and NIBR catalogs and NCI
// molecules (Debian rdkit-data), the screen must never reject a molecule the pattern matches.
test("the element screen never rejects a match RDKit finds (PAINS and NIBR on NCI molecules)", async (t) => {
  let smiles: string[];
  try {
    smiles = readFileSync(NCI, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, 300)
      .map((line) => line.split(/\s+/)[0] ?? "");
  } catch {
    t.skip(`needs ${NCI} (apt-get install rdkit-data)`);
    return;
  }
  const rdkit = await loadRDKit();
  const queries = [...painsPatterns(), ...nibrFilters()].map(({ smarts }) => {
    const query = rdkit.get_qmol(smarts);
    assert.ok(query !== null, smarts);
    return { smarts, query, screen: elementScreenOf(query.get_json()) };
  });
  let rejected = 0;
  let matched = 0;
  try {
    for (const input of smiles) {
      const parsed = rdkit.get_mol(input);
      if (parsed === null) continue;
      const withHs = rdkit.get_mol_copy(parsed);
      withHs?.add_hs_in_place();
      for (const mol of [parsed, withHs]) {
        if (mol === null) continue;
        const counts = countElements(molJson(mol));
        for (const { smarts, query, screen } of queries) {
          const matches: boolean = mol.get_substruct_match(query) !== "{}";
          if (matches) matched++;
          if (passesElementScreen(counts, screen)) continue;
          rejected++;
          assert.equal(matches, false, `${smarts} matches ${input} but the screen rejected it`);
        }
        mol.delete();
      }
    }
  } finally {
    for (const { query } of queries) query.delete();
  }
  assert.ok(matched > 100, `some patterns match (${matched})`);
  assert.ok(rejected > 10_000, `the screen spares graph matches (${rejected} rejected)`);
});
