import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import {
  copyDockedFixture,
  dockedContextOf,
  structureCompound,
} from "../../../test/support/docked-fixture.ts";
import { readDockedPoses } from "./docked-poses.ts";
import { physicsAuditModule, quantumTargetAuditModule } from "./physics-modules.ts";

const tools = spawnSync("xtb", ["--version"]).status === 0 && spawnSync("mopac", ["-V"]).status === 0;
if (!tools && process.env.CI === "true")
  throw new Error("physics tools unavailable in CI: xtb or mopac missing");

async function runDirWithDocking(t: { after: (fn: () => unknown) => void }) {
  const runDir = await makeTempDir("physics-modules-", t);
  await copyDockedFixture(runDir);
  return runDir;
}

test("the docked poses are read best score first, and a run without docking names why there is no pose", async (t) => {
  const runDir = await runDirWithDocking(t);
  const poses = await readDockedPoses(runDir, 0);
  assert.equal(poses.status, "read");
  if (poses.status === "read")
    assert.deepEqual(
      poses.ranked.map((pose) => pose.candidate_id),
      ["DHFR-001", "DHFR-004", "DHFR-009"],
    );
  const empty = await makeTempDir("physics-modules-", t);
  const none = await readDockedPoses(empty, 0);
  assert.equal(none.status, "none");
  const run = await quantumTargetAuditModule.assessStructure(dockedContextOf(empty, "standard"));
  const [row] = await run.assess([structureCompound("DHFR-001")]);
  assert.equal(row?.status, "not_assessed");
  assert.match(String(row?.reason), /no docked pose: molecular_docking has no result/);
});

test("a standard run says physics_audit's strain is deep only, and records no compound as assessed", async (t) => {
  const runDir = await runDirWithDocking(t);
  const context = dockedContextOf(runDir, "standard");
  const run = await physicsAuditModule.assessStructure(context);
  const setUp = run.result;
  assert.deepEqual(setUp.status, "not_assessed");
  const [row] = await run.assess([structureCompound("DHFR-009")]);
  assert.equal(row?.status, "not_assessed");
  assert.match(String(row?.reason), /^deep profile only/);
});

test("quantum_target_audit gives the GFN2 and PM7 gaps, charges, dipole and reactivity (IP > EA, Fukui sites) of a docked ligand relaxed from its pose", {
  skip: !tools && "xtb or mopac not installed",
  timeout: 600_000,
}, async (t) => {
  const runDir = await runDirWithDocking(t);
  const context = dockedContextOf(runDir, "standard");
  const run = await quantumTargetAuditModule.assessStructure(context);
  const [row] = await run.assess([structureCompound("DHFR-009")]);
  assert.equal(row?.status, "assessed", String(row?.reason));
  assert.ok(typeof row?.gfn2_gap_ev === "number" && row.gfn2_gap_ev > 0 && row.gfn2_gap_ev < 10);
  assert.ok(typeof row?.pm7_gap_ev === "number" && row.pm7_gap_ev > 0);
  const [low, high] = (row?.charge_range ?? [0, 0]) as [number, number];
  assert.ok(low < 0 && high > 0, "a neutral organic ligand has charges of both signs");
  assert.equal(row?.heavy_atoms, 11);
  const reactivity = row?.reactivity as {
    status: string;
    ip_ev: number;
    ea_ev: number;
    most_electrophilic_carbon: { element: string };
  };
  assert.equal(reactivity.status, "assessed");
  assert.ok(reactivity.ip_ev > 5 && reactivity.ip_ev < 12 && reactivity.ea_ev < reactivity.ip_ev);
  assert.equal(reactivity.most_electrophilic_carbon.element, "C");
  assert.equal(row?.computed_by, "quantum_target_audit");
  assert.ok(typeof row?.cpu_seconds === "number" && row.cpu_seconds > 0);
});

test("a deep run's physics_audit gives a strain ≥ 0 with the PM7 check, and quantum_target_audit reuses its relaxation", {
  skip: !tools && "xtb or mopac not installed",
  timeout: 1_200_000,
}, async (t) => {
  const runDir = await runDirWithDocking(t);
  const context = dockedContextOf(runDir, "deep");
  const run = await physicsAuditModule.assessStructure(context);
  const [row] = await run.assess([structureCompound("DHFR-009")]);
  assert.equal(row?.status, "assessed", String(row?.reason));
  assert.ok(typeof row?.strain_kcal_mol === "number" && row.strain_kcal_mol >= 0);
  assert.ok(typeof row?.pm7_strain_kcal_mol === "number");
  assert.ok((row?.conformers_optimised as number) >= 1);
  assert.equal(row?.budget_exhausted, false);
  const [quantum] = await (await quantumTargetAuditModule.assessStructure(context)).assess([
    structureCompound("DHFR-009"),
  ]);
  assert.equal(quantum?.computed_by, "physics_audit (the same relaxation)");
  assert.equal(quantum?.cpu_seconds, 0);
});
