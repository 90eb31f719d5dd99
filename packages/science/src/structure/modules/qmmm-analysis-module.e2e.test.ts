import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import {
  copyDockedFixture,
  dockedContextOf,
  structureCompound,
} from "../../../test/support/docked-fixture.ts";
import { physicsToolsMissing } from "../../../test/support/physics-tools.ts";
import { qmmmAnalysisModule } from "./qmmm-analysis-module.ts";

const mmTools = spawnSync("/usr/bin/python3", ["-c", "import openmm, parmed, pdbfixer, rdkit"]).status === 0;
if (!mmTools && process.env.CI === "true")
  throw new Error(
    "QM-cluster tools unavailable in CI: python3-simtk, python3-parmed or python3-pdbfixer missing",
  );
const missing = physicsToolsMissing ?? (mmTools ? null : "OpenMM, ParmEd or PDBFixer not installed");

test("qmmm_analysis says why it scores nothing in a run without docking, for the structure and each compound", async (t) => {
  const empty = await makeTempDir("qmmm-analysis-", t);
  const run = await qmmmAnalysisModule.assessStructure(dockedContextOf(empty, "deep"));
  assert.equal(run.result.status, "not_assessed");
  const [row] = await run.assess([structureCompound("DHFR-001")]);
  assert.equal(row?.status, "not_assessed");
  assert.match(String(row?.reason), /no docked pose: molecular_docking has no result/);
});

test("qmmm_analysis gives the best-docked DHFR pose a negative GFN2 QM-cluster interaction energy, named as such (not a free energy), with the first-shell residues, their caps and a pocket charge that is the count of charged residues; deep profile only", {
  skip: missing ?? false,
  timeout: 1_200_000,
}, async (t) => {
  const runDir = await makeTempDir("qmmm-analysis-", t);
  await copyDockedFixture(runDir);
  const { result: standard } = await qmmmAnalysisModule.assessStructure(dockedContextOf(runDir, "standard"));
  assert.equal(standard.status, "not_assessed");
  assert.match("reason" in standard ? String(standard.reason) : "", /^deep profile only/);
  const run = await qmmmAnalysisModule.assessStructure(dockedContextOf(runDir, "deep"));
  const setUp = run.result;
  assert.equal(setUp.status, "selected", "reason" in setUp ? setUp.reason : "");
  const record = JSON.parse(JSON.stringify(setUp)) as {
    receptor: { forcefield: string; atoms: number };
    settings: { pocket_cutoff_angstrom: number };
    selected: string[];
  };
  assert.equal(record.receptor.forcefield, "amber14/protein.ff14SB.xml");
  assert.equal(record.settings.pocket_cutoff_angstrom, 4.5);
  // The fixture's three docked compounds, best Vina score first.
  assert.deepEqual(record.selected, ["DHFR-001", "DHFR-004", "DHFR-009"]);
  const [row] = await run.assess([structureCompound("DHFR-001")]);
  assert.equal(row?.status, "assessed", String(row?.reason));
  t.diagnostic(JSON.stringify(row));
  const energy = row?.interaction_energy_kcal_mol as number;
  assert.ok(Number.isFinite(energy) && energy < 0, `a docked pose in its pocket attracts it: ΔE ${energy}`);
  assert.equal(
    row?.energy_kind,
    "GFN2 QM-cluster interaction energy (no sampling, no entropy, no relaxation)",
  );
  assert.equal(row?.method, "GFN2-xTB/ALPB(water)");
  const residues = row?.pocket_residues as string[];
  assert.ok(residues.length >= 8, `a first shell of residues around a drug-sized ligand: ${residues.length}`);
  assert.equal(row?.pocket_residue_count, residues.length);
  assert.ok((row?.hydrogen_caps as number) > 0, "the first shell is not one contiguous chain: bonds are cut");
  // DHFR's pocket charge from ff14SB equals its charged residues counted by name (His: neutral
  // tautomers as PDBFixer protonates at pH 7 are named HIS too, so only where the shell has none).
  const count = (names: string[]) => residues.filter((r) => names.includes(r.split(":")[0] ?? "")).length;
  if (count(["HIS", "HIP"]) === 0)
    assert.equal(row?.pocket_charge, count(["ARG", "LYS"]) - count(["ASP", "GLU"]), residues.join(" "));
  assert.ok(Number.isInteger(row?.pocket_charge) && Number.isInteger(row?.ligand_charge));
  assert.ok((row?.cluster_atoms as number) > residues.length * 7, "whole residues with their hydrogens");
  assert.ok((row?.cpu_seconds as number) > 0);
  const [other] = await run.assess([structureCompound("NOT-DOCKED")]);
  assert.equal(other?.status, "not_assessed");
  assert.match(String(other?.reason), /^cap: not among the 3 best-scored/);
});
