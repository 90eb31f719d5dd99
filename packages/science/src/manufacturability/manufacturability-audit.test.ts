import assert from "node:assert/strict";
import { test } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { manufacturabilityAudit } from "./manufacturability-audit.ts";

test("the audit reads the parent: a sodium salt has no metal, and unspecified stereo is flagged", async () => {
  const rdkit = await loadRDKit();
  const analyzer = inOneThread(manufacturabilityAudit);
  const f = analyzer.analyze(prepareCompound(rdkit, row(1, "CC(N)C(=O)[O-].[Na+]")));
  assert.equal(f.status, "assessed");
  assert.deepEqual(f.metals, []);
  assert.equal(f.unspecified_stereocentres, 1);
  assert.ok(f.flags?.[0]?.startsWith("1 stereocentre(s) unspecified"));
  const bad = analyzer.analyze(prepareCompound(rdkit, row(2, "C1CC")));
  assert.equal(bad.status, "not_assessed");
  assert.equal(bad.flags, null);
  const summary = analyzer.finish();
  assert.equal(summary.with_unspecified_stereo, 1);
  assert.equal(summary.not_assessed, 1);
});
