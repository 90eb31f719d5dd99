import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import type { AnalysisModule, CompoundFinding } from "./analysis-module.ts";
import type { CompoundRow } from "./compound-row.ts";
import { prepareCompound } from "./prepare-compound.ts";
import { loadRDKit } from "./rdkit.ts";
import { IMPLEMENTED_MODULES } from "./registry.ts";

// The contract of a split module (analysis-module.ts): `merge(assess(c))` equals `analyze(c)`,
// finding by finding and in `finish()`, whatever thread `assess` ran in. Checked on NCI
// first_5K.smi (Debian rdkit-data, public) plus rows that do not parse and a duplicate salt.
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const EXTRA = [
  "C1CC",
  "",
  "CC(=O)Oc1ccccc1C(=O)O",
  "CC(=O)Oc1ccccc1C(=O)O.[Na+].[Cl-]",
  "OC(=O)c1ccccc1OC(C)=O",
];

function rows(): CompoundRow[] {
  const nci = existsSync(NCI)
    ? readFileSync(NCI, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .slice(0, 60)
        .map((line) => line.split(/\s+/)[0] as string)
    : [];
  return [...nci, ...EXTRA].map((smiles, at) => ({
    index: at + 1,
    line: at + 2,
    candidateId: `C${at + 1}`,
    name: null,
    smiles,
    metadata: {},
  }));
}

test("every split module: merge(assess(c)) in portfolio order equals analyze(c), findings and summary", async () => {
  const rdkit = await loadRDKit();
  const compounds = rows().map((row) => prepareCompound(rdkit, row));
  const split = IMPLEMENTED_MODULES.filter((module) => module.assess !== undefined);
  assert.ok(split.length > 0, "no module is split");
  // Every module in run order; modules that read others get the same upstream findings both ways.
  const entries = (IMPLEMENTED_MODULES as AnalysisModule<never, unknown, unknown>[]).map((module) => ({
    module,
    whole: module.createAnalyzer(),
    parts: module.createAnalyzer(),
  }));
  for (const { module, parts } of entries)
    if (module.assess !== undefined)
      assert.equal(typeof parts.merge, "function", `${module.id} has assess but its analyzer has no merge`);
  for (const compound of compounds) {
    const upstream = new Map<string, CompoundFinding>();
    for (const { module, whole, parts } of entries) {
      const expected = whole.analyze(compound, upstream);
      if (module.assess !== undefined) {
        // The assessment crosses a thread boundary: it must survive the structured clone.
        const assessment = structuredClone((module.assess as (c: typeof compound) => unknown)(compound));
        assert.deepEqual(
          JSON.stringify(parts.merge?.(assessment as never, upstream)),
          JSON.stringify(expected),
          `${module.id} ${compound.row.candidateId}`,
        );
      }
      upstream.set(module.id, expected);
    }
  }
  for (const { module, whole, parts } of entries)
    if (module.assess !== undefined)
      assert.equal(JSON.stringify(parts.finish()), JSON.stringify(whole.finish()), `${module.id} summary`);
});
