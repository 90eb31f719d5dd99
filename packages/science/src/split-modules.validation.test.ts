import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import type { CompoundFinding } from "./analysis-module.ts";
import type { CompoundRow } from "./compound-row.ts";
import { inOneThread } from "./define-module.ts";
import { prepareCompound } from "./prepare-compound.ts";
import { loadRDKit } from "./rdkit.ts";
import { IMPLEMENTED_MODULES } from "./registry.ts";

// The contract of a module (analysis-module.ts, define-module.ts): `assess` runs in a worker and
// its result crosses to the main thread by structured clone before `merge`. A module's findings and
// summary must not depend on that crossing: the same in one thread as through structuredClone, in
// portfolio order. Checked on NCI first_5K.smi (Debian rdkit-data, public) plus rows that do not
// parse and a duplicate salt.
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

test("every module: its findings and summary are the same in one thread and with each assessment structured-cloned", async () => {
  const rdkit = await loadRDKit();
  const compounds = rows().map((row) => prepareCompound(rdkit, row));
  // Every module in run order; modules that read others get the same upstream findings both ways.
  const entries = IMPLEMENTED_MODULES.map((module) => ({
    module,
    whole: inOneThread(module),
    parts: module.createRun(),
  }));
  let notAssessed = 0;
  for (const compound of compounds) {
    if (!compound.ok) notAssessed++;
    const upstream = new Map<string, CompoundFinding>();
    for (const { module, whole, parts } of entries) {
      const expected = whole.analyze(compound, upstream);
      // The assessment crosses a thread boundary: it must survive the structured clone.
      const assessment = structuredClone(module.assess(compound));
      assert.deepEqual(
        JSON.stringify(parts.merge(assessment, upstream)),
        JSON.stringify(expected),
        `${module.id} ${compound.row.candidateId}`,
      );
      upstream.set(module.id, expected);
    }
  }
  assert.ok(notAssessed >= 2, "the compounds include ones that do not parse");
  for (const { module, whole, parts } of entries)
    assert.equal(JSON.stringify(parts.finish()), JSON.stringify(whole.finish()), `${module.id} summary`);
});
