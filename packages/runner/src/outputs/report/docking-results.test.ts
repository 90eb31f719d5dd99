import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { DOCKING_FIXTURE } from "../../../test/support/docking-report.ts";
import { bestDocking, dockingRunOf } from "./docking-results.ts";

const fixture = async () =>
  JSON.parse(await readFile(join(DOCKING_FIXTURE, "results", "molecular_docking.json"), "utf8"));

test("a real molecular_docking file reads as one structure with its box, standard profile and three docked compounds", async () => {
  const run = dockingRunOf(await fixture());
  assert.ok(run);
  const [structure] = run.structures;
  assert.equal(structure?.index, 0);
  assert.equal(structure?.reason, null);
  assert.deepEqual(structure?.box?.size, [15.854, 19.37, 15]);
  assert.equal(structure?.box?.source, "reference_ligand");
  assert.deepEqual(structure?.profile, {
    name: "standard",
    exhaustiveness: 8,
    poses: 9,
    seed: 42,
    scoring: "vina",
    rescoring: [],
    receptors: null,
    ensemble_rule: null,
  });
  assert.deepEqual(
    structure?.docked.map((compound) => [compound.candidate_id, compound.score, compound.ligand_efficiency]),
    [
      ["DHFR-001", -9.191, 0.34],
      ["DHFR-004", -7.446, 0.355],
      ["DHFR-009", -5.764, 0.524],
    ],
  );
  assert.deepEqual(run.byCompound.get("DHFR-001")?.[0]?.pose_checks, {
    passed: false,
    failed: ["inside_box"],
  });
});

test("the deep module's profile record, ensemble and consensus (and a not-docked compound) are read when present", async () => {
  const file = await fixture();
  const [structure] = file.structures;
  const profile = { name: "deep", exhaustiveness: 32, ensemble_size: 7, rescorers: ["vinardo", "ad4"] };
  structure.result.profile = profile;
  structure.result.ensemble = { receptors: ["crystal"], rule: "crystal + ±1 Å along ANM modes 1–3" };
  structure.compounds[0] = {
    ...structure.compounds[0],
    profile,
    vinardo_kcal_mol: undefined,
    best_receptor: "anm-mode1-plus",
    consensus: { vinardo_kcal_mol: -8.1, ad4_kcal_mol: -7.2, consensus_kcal_mol: -8.2 },
    interaction_residues: { hydrogen_bond: ["A:GLU30", "A:ILE7"] },
  };
  structure.compounds.push({ candidate_id: "DHFR-010", status: "not_assessed", reason: "cap" });
  const run = dockingRunOf(file);
  const read = run?.structures[0];
  assert.deepEqual(read?.profile, {
    name: "deep",
    exhaustiveness: 32,
    poses: 9,
    seed: 42,
    scoring: "vina",
    rescoring: ["Vinardo", "AD4"],
    receptors: 7,
    ensemble_rule: "crystal + ±1 Å along ANM modes 1–3",
  });
  const first = read?.docked[0];
  assert.deepEqual(
    [first?.vinardo, first?.ad4, first?.consensus, first?.best_receptor],
    [-8.1, -7.2, -8.2, "anm-mode1-plus"],
  );
  assert.deepEqual(first?.interaction_residues, { hydrogen_bond: ["A:GLU30", "A:ILE7"] });
  assert.deepEqual([...(read?.not_docked ?? [])], [["cap", 1]]);
  assert.equal(run?.byCompound.get("DHFR-010")?.[0]?.status, "not_assessed");
});

test("a compound's best docking is its lowest score over the structures; none when nothing docked it", () => {
  const entry = (structure: number, score: number | null, status: "docked" | "not_assessed" = "docked") => ({
    structure,
    status,
    reason: null,
    score,
    ligand_efficiency: null,
    heavy_atoms: null,
    pose_file: null,
    pose_checks: null,
    interactions: null,
    interaction_residues: null,
    vinardo: null,
    ad4: null,
    consensus: null,
    best_receptor: null,
  });
  assert.equal(bestDocking([entry(0, -6), entry(1, -8.5), entry(2, -9, "not_assessed")])?.structure, 1);
  assert.equal(bestDocking([entry(0, null, "not_assessed")]), null);
  assert.equal(dockingRunOf({ no: "structures" }), null);
});
