import assert from "node:assert/strict";
import { test } from "node:test";
import { DOCKING_FIXTURE } from "../../../test/support/docking-report.ts";
import { createPoseReader } from "./pose-reader.ts";

test("a pose is read from results/poses/ of the run folder, and only from there", async () => {
  const poses = createPoseReader(DOCKING_FIXTURE);
  const pose = await poses.read("results/poses/structure-0/DHFR-004.sdf");
  assert.equal(pose?.molecule.atoms.filter((atom) => atom.element !== "H").length, 21);
  assert.match(pose?.sdf ?? "", /M {2}END/);
  assert.equal(await poses.read("results/molecular_docking.json"), null);
  assert.equal(await poses.read("results/poses/../molecular_docking.json"), null);
  assert.equal(await poses.read("results/poses/structure-0/missing.sdf"), null);
  assert.equal(await poses.read(null), null);
});
