import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DockedCompoundRecord, dockingCompoundRecordSchema } from "./docking-result.ts";

const docked: DockedCompoundRecord = {
  candidate_id: "DHFR-001",
  status: "docked",
  reason: null,
  score_kcal_mol: -9.191,
  ligand_efficiency: 0.34,
  heavy_atoms: 27,
  pose_file: "results/poses/structure-0/DHFR-001.sdf",
  pose_checks: { passed: true, failed: [] },
  interactions: {
    hydrophobic: 2,
    hydrogen_bond: 4,
    salt_bridge: 1,
    pi_stacking: 1,
    pi_cation: 0,
    halogen_bond: 0,
    metal_complex: 0,
    total: 8,
    residues: 8,
  },
  vinardo_kcal_mol: null,
  profile: { name: "standard", exhaustiveness: 8, ensemble_size: 1, rescorers: [] },
  receptor_scores: [{ receptor: "crystal", score_kcal_mol: -9.191, reason: null }],
  best_receptor: "crystal",
  consensus: null,
  settings: {
    seed: 42,
    exhaustiveness: 8,
    numModes: 9,
    cpu: 1,
    cpuBudgetS: 600,
    timeoutMs: 2_400_000,
    scoring: "vina",
  },
};

const issuePaths = (value: unknown): string[] => {
  const parsed = dockingCompoundRecordSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."));
};

describe("docking result record (results/molecular_docking.json)", () => {
  it("accepts a docked record and a not_assessed one with its reason", () => {
    assert.deepEqual(issuePaths(docked), []);
    assert.deepEqual(issuePaths({ candidate_id: "DHFR-010", status: "not_assessed", reason: "cap" }), []);
  });

  it("refuses a field nobody declared, at any depth (a reader could otherwise come to depend on it)", () => {
    const extra = (record: object) => dockingCompoundRecordSchema.safeParse(record).error?.issues[0];
    assert.equal(extra({ ...docked, interaction_residues: {} })?.code, "unrecognized_keys");
    assert.deepEqual(extra({ ...docked, pose_checks: { passed: true, failed: [], worst: 0 } })?.path, [
      "pose_checks",
    ]);
    assert.deepEqual(extra({ ...docked, settings: { ...docked.settings, num_modes: 9 } })?.path, [
      "settings",
    ]);
  });

  it("refuses a docked record without its score or pose, and a not_assessed one without its reason", () => {
    const { score_kcal_mol: _score, ...noScore } = docked;
    assert.deepEqual(issuePaths(noScore), ["score_kcal_mol"]);
    assert.deepEqual(issuePaths({ ...docked, pose_file: null }), ["pose_file"]);
    assert.deepEqual(issuePaths({ candidate_id: "x", status: "not_assessed", reason: null }), ["reason"]);
  });
});
