import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import { renderCard } from "./compound-card.ts";
import { readCompoundView } from "./compound-view.ts";
import { flattenFinding } from "./finding-columns.ts";
import { readStructureRecords } from "./structure-records.ts";

test("the physics modules' per-compound records join each compound's findings: a card panel and report.csv columns for physics_audit, keyed per structure when there are several (issue 40 Done when)", async (t) => {
  const dir = await makeTempDir("structure-records-", t);
  await mkdir(join(dir, "results"));
  const record = (id: string, strain: number) => ({
    candidate_id: id,
    status: "assessed",
    reason: null,
    strain_kcal_mol: strain,
    gap_ev: 4.2,
  });
  await writeFile(
    join(dir, "results", "physics_audit.json"),
    JSON.stringify({ module_id: "physics_audit", structures: [{ index: 0, compounds: [record("A", 1.5)] }] }),
  );
  await writeFile(
    join(dir, "results", "quantum_target_audit.json"),
    JSON.stringify({
      structures: [
        { index: 0, compounds: [record("A", 0)] },
        { index: 1, compounds: [record("A", 0), record("B", 0)] },
      ],
    }),
  );
  // Docking has its own panel; a module without a file is simply absent.
  await writeFile(join(dir, "results", "molecular_docking.json"), JSON.stringify({ structures: [] }));
  const records = await readStructureRecords(dir, [
    "molecular_docking",
    "physics_audit",
    "quantum_target_audit",
    "advanced_comp_chem_summary",
  ]);
  assert.deepEqual(
    [...(records.get("A")?.keys() ?? [])],
    ["physics_audit", "quantum_target_audit@pdbs[0]", "quantum_target_audit@pdbs[1]"],
  );
  assert.deepEqual([...(records.get("B")?.keys() ?? [])], ["quantum_target_audit@pdbs[1]"]);
  const physics = records.get("A")?.get("physics_audit") ?? {};
  assert.equal(physics.strain_kcal_mol, 1.5);
  assert.equal("candidate_id" in physics, false);
  const paths = flattenFinding("physics_audit", physics).map(([path]) => path);
  assert.ok(paths.includes("physics_audit.strain_kcal_mol"), paths.join(", "));
  const view = readCompoundView(
    {
      row: { index: 0, candidateId: "A", name: null, smiles: "CCO", metadata: {} },
      ok: true,
      chem: { parent_smiles: "CCO", parent_inchikey: null, inchikey: null, fragment_count: 1 },
    },
    new Map(records.get("A") ?? []),
    new Map(),
  );
  const html = renderCard(view, 1, { depiction: null, cluster: null, neighbours: [], cardedRanks: 1 });
  assert.match(html, /data-panel="other-physics_audit"/);
  assert.match(html, /strain kcal mol/);
});

test("interaction_stability's record reaches the card as a panel and report.csv as one column per value: RMSD mean and fraction within 2 Å, the occupancies and the per-frame series as text (issue 40 item 3)", async (t) => {
  const dir = await makeTempDir("structure-records-", t);
  await mkdir(join(dir, "results"));
  await writeFile(
    join(dir, "results", "interaction_stability.json"),
    JSON.stringify({
      module_id: "interaction_stability",
      structures: [
        {
          index: 0,
          compounds: [
            {
              candidate_id: "A",
              status: "assessed",
              reason: null,
              what: "pose stability over 10 ps (short explicit-solvent MD; not a binding stability)",
              rmsd_mean_angstrom: 1.02,
              fraction_frames_within_2_angstrom: 1,
              rmsd_per_frame_angstrom: [0.9, 1.1],
              interaction_occupancy: "hydrogen_bond|A:27:ASP|3|false 0.8",
            },
          ],
        },
      ],
    }),
  );
  const records = await readStructureRecords(dir, ["interaction_stability"]);
  const record = records.get("A")?.get("interaction_stability") ?? {};
  const columns = new Map(flattenFinding("interaction_stability", record));
  assert.equal(columns.get("interaction_stability.rmsd_mean_angstrom"), 1.02);
  assert.equal(columns.get("interaction_stability.fraction_frames_within_2_angstrom"), 1);
  assert.equal(columns.get("interaction_stability.rmsd_per_frame_angstrom"), "0.9; 1.1");
  assert.equal(
    columns.get("interaction_stability.interaction_occupancy"),
    "hydrogen_bond|A:27:ASP|3|false 0.8",
  );
  const view = readCompoundView(
    {
      row: { index: 0, candidateId: "A", name: null, smiles: "CCO", metadata: {} },
      ok: true,
      chem: { parent_smiles: "CCO", parent_inchikey: null, inchikey: null, fragment_count: 1 },
    },
    new Map(records.get("A") ?? []),
    new Map(),
  );
  const html = renderCard(view, 1, { depiction: null, cluster: null, neighbours: [], cardedRanks: 1 });
  assert.match(html, /data-panel="other-interaction_stability"/);
  assert.match(html, /pose stability over 10 ps/);
});
