import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { makeTempDir } from "@svc/testing";
import type { StructureCompound, StructureContext } from "../../define-structure-module.ts";
import { advancedCompChemSummaryModule } from "./advanced-comp-chem-summary-module.ts";

const compound = (candidateId: string): StructureCompound => ({
  ok: true,
  row: { index: 0, line: 2, candidateId, name: null, smiles: "C", metadata: {} },
  chem: { parent_smiles: "C" },
});

test("each cell is the source module's record for the compound, and every module with nothing is named with its reason", async (t) => {
  const runDir = await makeTempDir("acc-summary-", t);
  await mkdir(join(runDir, "results"), { recursive: true });
  const docked = {
    candidate_id: "A",
    status: "docked",
    reason: null,
    score_kcal_mol: -8.1,
    ligand_efficiency: 0.31,
    pose_checks: { passed: true, failed: [] },
    interactions: { hydrogen_bonds: 2 },
    settings: { seed: 42 },
  };
  await writeFile(
    join(runDir, "results", "molecular_docking.json"),
    JSON.stringify({
      structures: [
        { index: 0, compounds: [docked, { candidate_id: "B", status: "not_assessed", reason: "cap" }] },
      ],
    }),
  );
  const context = { runDir, staged: { index: 0 } } as unknown as StructureContext;
  const run = await advancedCompChemSummaryModule.assessStructure(context);
  const [a] = await run.assess([compound("A")]);
  const [b] = await run.assess([compound("B")]);
  const [c] = await run.assess([compound("C")]);
  assert.deepEqual(a?.modules.molecular_docking, {
    status: "present",
    values: {
      score_kcal_mol: -8.1,
      ligand_efficiency: 0.31,
      pose_checks: { passed: true, failed: [] },
      interactions: { hydrogen_bonds: 2 },
    },
  });
  assert.deepEqual(
    a?.missing.map((entry) => entry.module_id),
    ["physics_audit", "quantum_target_audit", "physics_binding", "qmmm_analysis", "interaction_stability"],
  );
  assert.match(a?.missing[0]?.reason ?? "", /physics_audit has no result in this run/);
  assert.deepEqual(b?.modules.molecular_docking, {
    status: "missing",
    reason: "molecular_docking not assessed: cap",
  });
  assert.equal(c?.modules.molecular_docking.status, "missing");
  assert.deepEqual(JSON.parse(JSON.stringify(run.result)).molecular_docking, { read: 2 });
});

test("a structure with no compound records in a source names the source's own reason", async (t) => {
  const runDir = await makeTempDir("acc-summary-", t);
  await mkdir(join(runDir, "results"), { recursive: true });
  await writeFile(
    join(runDir, "results", "molecular_docking.json"),
    JSON.stringify({ structures: [{ index: 0, result: { status: "not_assessed", reason: "no pocket" } }] }),
  );
  const context = { runDir, staged: { index: 0 } } as unknown as StructureContext;
  const run = await advancedCompChemSummaryModule.assessStructure(context);
  const [row] = await run.assess([compound("A")]);
  assert.deepEqual(row?.modules.molecular_docking, {
    status: "missing",
    reason: "molecular_docking has no compound results for this structure: no pocket",
  });
});
