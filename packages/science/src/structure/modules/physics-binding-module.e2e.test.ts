import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import {
  copyDockedFixture,
  dockedContextOf,
  structureCompound,
} from "../../../test/support/docked-fixture.ts";
import { physicsBindingModule } from "./physics-binding-module.ts";

const tools =
  spawnSync("/usr/bin/python3", [
    "-c",
    "import openmm, parmed, pdbfixer, rdkit; from openbabel import openbabel",
  ]).status === 0;
if (!tools && process.env.CI === "true")
  throw new Error(
    "MM-GBSA tools unavailable in CI: python3-simtk, python3-parmed, python3-pdbfixer or openbabel missing",
  );

test("physics_binding says why it rescores nothing in a run without docking, for the structure and each compound", async (t) => {
  const empty = await makeTempDir("physics-binding-", t);
  const context = dockedContextOf(empty, "deep");
  const run = await physicsBindingModule.assessStructure(context);
  const setUp = run.result;
  assert.equal(setUp.status, "not_assessed");
  const [row] = await run.assess([structureCompound("DHFR-001")]);
  assert.equal(row?.status, "not_assessed");
  assert.match(String(row?.reason), /no docked pose: molecular_docking has no result/);
});

test("physics_binding rescores a docked pose with a finite relative MM-GBSA score (MM plus solvation), MMFF94 charges named, never called a free energy; an undocked compound says why", {
  skip: !tools && "OpenMM, ParmEd, PDBFixer or Open Babel not installed",
  timeout: 1_200_000,
}, async (t) => {
  const runDir = await makeTempDir("physics-binding-", t);
  await copyDockedFixture(runDir);
  const { result: standard } = await physicsBindingModule.assessStructure(
    dockedContextOf(runDir, "standard"),
  );
  assert.equal(standard.status, "not_assessed");
  assert.match("reason" in standard ? String(standard.reason) : "", /^deep profile only/);
  const context = dockedContextOf(runDir, "deep");
  const run = await physicsBindingModule.assessStructure(context);
  const setUp = run.result;
  assert.equal(setUp.status, "selected", "reason" in setUp ? setUp.reason : "");
  const record = JSON.parse(JSON.stringify(setUp)) as { receptor: { forcefield: string; atoms: number } };
  assert.equal(record.receptor.forcefield, "amber14/protein.ff14SB.xml");
  assert.ok(record.receptor.atoms > 1000, "the parameterised receptor has its hydrogens");
  const [row] = await run.assess([structureCompound("DHFR-009")]);
  assert.equal(row?.status, "assessed", String(row?.reason));
  const score = row?.mm_gbsa_relative_kcal_mol as number;
  assert.ok(Number.isFinite(score));
  assert.ok(
    Math.abs(score - ((row?.mm_kcal_mol as number) + (row?.solvation_kcal_mol as number))) < 0.05,
    "the score is its MM and solvation parts (the bonded terms cancel on one frame)",
  );
  assert.ok(score < 0, "a docked pose in its pocket scores below zero");
  assert.match(String(row?.charges), /MMFF94.*standing in for AM1-BCC/);
  assert.match(String(row?.score_kind), /relative.*not a binding free energy/);
  assert.ok((row?.cpu_seconds as number) > 0);
  const [other] = await run.assess([structureCompound("NOT-DOCKED")]);
  assert.equal(other?.status, "not_assessed");
  assert.match(String(other?.reason), /^cap: not among the 20 best-scored/);
});
