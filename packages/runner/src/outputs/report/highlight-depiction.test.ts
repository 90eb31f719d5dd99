import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { createDepicter, type HighlightingToolkit } from "./highlight-depiction.ts";

// RDKit WebAssembly loaded directly (not through the runner's wrapper, which is moving to @svc/science).
const loadRDKit = createRequire(import.meta.url)("@rdkit/rdkit") as () => Promise<HighlightingToolkit>;

test("alert atoms are drawn highlighted on the parent's depiction, and only those", async () => {
  const depict = createDepicter(await loadRDKit());
  const plain = depict("Oc1ccccc1", []);
  const phenol = depict("Oc1ccccc1", [0]);
  assert.ok(plain !== null && phenol !== null);
  assert.ok(phenol.startsWith("<svg"), "an SVG fragment, without an XML declaration");
  // RDKit draws a highlighted atom as a filled ellipse in its highlight colour (#FF7F7F).
  assert.doesNotMatch(plain, /#FF7F7F/i);
  assert.match(phenol, /<ellipse[^>]*#FF7F7F/i);
  assert.equal(depict("not a smiles(", [0]), null);
});
