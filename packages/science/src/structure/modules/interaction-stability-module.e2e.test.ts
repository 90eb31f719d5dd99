import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import {
  copyDockedFixture,
  dockedContextOf,
  structureCompound,
} from "../../../test/support/docked-fixture.ts";
import {
  createInteractionStabilityModule,
  interactionStabilityModule,
} from "./interaction-stability-module.ts";

const tools =
  spawnSync("/usr/bin/python3", [
    "-c",
    "import openmm, parmed, pdbfixer, rdkit; from openbabel import openbabel; openmm.Platform.getPlatformByName('CPU')",
  ]).status === 0;
if (!tools && process.env.CI === "true")
  throw new Error(
    "MD tools unavailable in CI: python3-simtk with libopenmm-plugins, python3-parmed, python3-pdbfixer or openbabel missing",
  );

test("interaction_stability says why it simulates nothing in a run without docking, for the structure and each compound", async (t) => {
  const empty = await makeTempDir("interaction-stability-", t);
  const context = dockedContextOf(empty, "deep");
  const run = await interactionStabilityModule.assessStructure(context);
  assert.equal(run.result.status, "not_assessed");
  const [row] = await run.assess([structureCompound("DHFR-001")]);
  assert.equal(row?.status, "not_assessed");
  assert.match(String(row?.reason), /no docked pose: molecular_docking has no result/);
});

test("interaction_stability is deep only: a standard run says so", async (t) => {
  const runDir = await makeTempDir("interaction-stability-", t);
  const { result: setUp } = await interactionStabilityModule.assessStructure(
    dockedContextOf(runDir, "standard"),
  );
  assert.equal(setUp.status, "not_assessed");
  assert.match("reason" in setUp ? String(setUp.reason) : "", /^deep profile only/);
});

test("interaction_stability simulates a docked pose for a few ps: an RMSD per frame, its summary, the pose's interaction occupancies in [0, 1], worded as pose stability; past the cap a compound says why", {
  skip: !tools && "OpenMM (CPU platform), ParmEd, PDBFixer or Open Babel not installed",
  timeout: 3_600_000,
}, async (t) => {
  const runDir = await makeTempDir("interaction-stability-", t);
  await copyDockedFixture(runDir);
  const module = createInteractionStabilityModule(2);
  const context = dockedContextOf(runDir, "deep");
  const run = await module.assessStructure(context);
  const setUp = run.result;
  assert.equal(setUp.status, "selected", "reason" in setUp ? setUp.reason : "");
  const record = JSON.parse(JSON.stringify(setUp)) as {
    receptor: { forcefield: string };
    simulated_at_most: number;
  };
  assert.equal(record.receptor.forcefield, "amber14/protein.ff14SB.xml");
  assert.equal(record.simulated_at_most, 3);
  const [row, other] = await run.assess([structureCompound("DHFR-009"), structureCompound("NOT-DOCKED")]);
  assert.equal(row?.status, "assessed", String(row?.reason));
  assert.equal(row?.production_ps, 2);
  assert.match(String(row?.what), /^pose stability over 2 ps/);
  assert.doesNotMatch(JSON.stringify(row), /binding stability"/);
  const series = row?.rmsd_per_frame_angstrom as number[];
  assert.equal(series.length, 2, "one frame per ps");
  assert.ok(series.every((value) => Number.isFinite(value) && value >= 0 && value < 10));
  assert.equal(row?.rmsd_max_angstrom, Math.round(Math.max(...series) * 100) / 100);
  const fraction = row?.fraction_frames_within_2_angstrom as number;
  assert.ok(fraction >= 0 && fraction <= 1);
  assert.ok((row?.interactions_of_pose as number) > 0, "the docked pose has interactions to follow");
  const occupancies = String(row?.interaction_occupancy)
    .split("; ")
    .map((entry) => Number(entry.split(" ").at(-1)));
  assert.ok(
    occupancies.every((value) => value >= 0 && value <= 1),
    String(row?.interaction_occupancy),
  );
  assert.equal(row?.threads, 1, "one OpenMM thread: reruns identical");
  assert.ok((row?.atoms as number) > 3000, "explicit water around the pocket");
  assert.ok((row?.cpu_seconds as number) > 0);
  assert.equal(other?.status, "not_assessed");
  assert.match(String(other?.reason), /^cap: not among the 3 best-scored/);
});
