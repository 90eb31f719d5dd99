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

test("fields a later docking module may write (profile, ensemble, consensus, per-type residues, not docked) are read when present", async () => {
  const file = await fixture();
  const [structure] = file.structures;
  structure.compounds[0] = {
    ...structure.compounds[0],
    profile: "deep",
    receptor_scores: [{}, {}, {}],
    vinardo_kcal_mol: undefined,
    consensus: { vinardo: -8.1, ad4: -7.2 },
    interaction_residues: { hydrogen_bond: ["A:GLU30", "A:ILE7"] },
  };
  structure.compounds.push({ candidate_id: "DHFR-010", status: "not_assessed", reason: "cap" });
  const run = dockingRunOf(file);
  const read = run?.structures[0];
  assert.equal(read?.profile.name, "deep");
  assert.equal(read?.profile.receptors, 3);
  assert.deepEqual(read?.profile.rescoring, ["Vinardo", "AD4"]);
  assert.deepEqual(read?.docked[0]?.interaction_residues, { hydrogen_bond: ["A:GLU30", "A:ILE7"] });
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
  });
  assert.equal(bestDocking([entry(0, -6), entry(1, -8.5), entry(2, -9, "not_assessed")])?.structure, 1);
  assert.equal(bestDocking([entry(0, null, "not_assessed")]), null);
  assert.equal(dockingRunOf({ no: "structures" }), null);
});
