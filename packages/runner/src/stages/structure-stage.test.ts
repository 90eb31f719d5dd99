import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { IMPLEMENTED_MODULES } from "@svc/science";
import { makeTempDir } from "@svc/testing";
import { parseSources } from "../inputs/sources.ts";
import { stageStructures } from "../inputs/structure-inputs.ts";
import { createLogger } from "../log.ts";
import { buildModulePlan, countPlan, settlePlan } from "../plan/module-plan.ts";
import { loadPolicy } from "../plan/policy.ts";
import { resolveCategory } from "../plan/resolve-category.ts";
import type { StructureModule } from "../structure/structure-module.ts";
import { STRUCTURE_MODULES } from "../structure/structure-modules.ts";
import type { PlannedRun } from "./plan-stage.ts";
import { runStructureModules } from "./structure-stage.ts";
import type { ValidatedRow } from "./validate-stage.ts";

type Owner = { after: (fn: () => unknown) => void };

const RECEPTOR = [
  "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C",
  "ATOM      2  CA  GLY A   2       3.800   0.000   0.000  1.00 25.00           C",
  "ATOM      3  CA  SER A   3       1.900   3.291   0.000  1.00 30.00           C",
  "ATOM      4  CA  THR A   4       1.900   1.097   3.103  1.00 35.00           C",
].join("\n");

/** A module of our own with the per-compound hook docking will use: it counts atoms and echoes ids. */
const perCompound: StructureModule<number, string> = {
  id: "test_per_compound",
  version: "0.0.1",
  method: { what: "test", citations: ["none"], data: [], validation: "none", limits: "none" },
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  assessStructure: async ({ parsed }) => parsed.atoms.length,
  assessCompound: async (_context, atoms, compound) => `${compound.row.candidateId}:${atoms}`,
};
const failing: StructureModule = {
  ...perCompound,
  id: "test_failing",
  assessStructure: async () => {
    throw new Error("tool crashed");
  },
};

function plannedOf(...ids: string[]): PlannedRun {
  const modules = ids.map((module_id) => ({ module_id, outcome: "planned" }));
  return { plan: { modules } } as unknown as PlannedRun;
}

function row(candidateId: string, ok: boolean): ValidatedRow {
  const input = { index: 1, line: 2, candidateId, name: null, smiles: "C", metadata: {} };
  return {
    status: ok ? "ok" : "invalid",
    reason: null,
    compound: { row: input, ok, error: "x" },
  } as unknown as ValidatedRow;
}

async function setUp(t: Owner) {
  const dir = await makeTempDir("structure-stage-", t);
  await writeFile(join(dir, "receptor.pdb"), `${RECEPTOR}\n`);
  const sources = parseSources(JSON.stringify({ portfolio_selected_csv: "p.csv", pdbs: ["receptor.pdb"] }));
  return { dir, structures: await stageStructures(dir, sources.pdbs) };
}

describe("the structure stage", () => {
  it("runs a planned module per structure and per parsed compound, writing results/<module>.json with its method card", async (t) => {
    const { dir, structures } = await setUp(t);
    const result = await runStructureModules({
      log: createLogger("json", { write: () => {}, tty: false }),
      runDir: dir,
      workDir: join(dir, ".scratch-structures"),
      runId: "run_1",
      mode: "standard",
      planned: plannedOf("test_per_compound"),
      structures,
      generatedAt: "2026-01-01T00:00:00Z",
      rows: async function* () {
        yield row("A", true);
        yield row("B", false);
        yield row("C", true);
      },
      modules: [perCompound, failing],
    });
    assert.deepEqual([...result.failures], []);
    assert.deepEqual(result.files, [join("results", "test_per_compound.json")]);
    const written = JSON.parse(await readFile(join(dir, "results", "test_per_compound.json"), "utf8"));
    assert.equal(written.method.what, "test");
    assert.equal(written.structures[0].file, "01_sources/receptor.pdb");
    assert.equal(written.structures[0].result, 4);
    assert.deepEqual(
      written.structures[0].compounds,
      ["A:4", "C:4"],
      "unparsed compounds are not given to the module",
    );
    await assert.rejects(
      stat(join(dir, "results", "test_failing.json")),
      "a module not planned does not run",
    );
  });

  it("counts the work a per-compound module did: 5 of 6 compounds killed by the docking CPU budget make the run HYPOTHESIS with the reason, though the module ran (issue 37 item 3)", async (t) => {
    const { dir, structures } = await setUp(t);
    // The records molecular_docking writes: one docked, five killed by Vina's CPU budget.
    const timingOut: StructureModule<number, unknown> = {
      ...perCompound,
      id: "molecular_docking",
      assessCompound: async (_context, _atoms, compound) =>
        compound.row.candidateId === "A"
          ? { candidate_id: "A", status: "docked", reason: null }
          : {
              candidate_id: compound.row.candidateId,
              status: "not_assessed",
              reason: "vina exceeded its CPU budget of 600000 ms CPU and was killed",
            },
    };
    const result = await runStructureModules({
      log: createLogger("json", { write: () => {}, tty: false }),
      runDir: dir,
      workDir: join(dir, ".scratch-structures"),
      runId: "run_1",
      mode: "standard",
      planned: plannedOf("molecular_docking"),
      structures,
      generatedAt: "2026-01-01T00:00:00Z",
      compounds: 6,
      rows: async function* () {
        for (const id of ["A", "B", "C", "D", "E", "F"]) yield row(id, true);
      },
      modules: [timingOut],
    });
    assert.deepEqual(result.work, [
      {
        module_id: "molecular_docking",
        assessed: 1,
        expected: 6,
        not_done: { "vina exceeded its CPU budget of 600000 ms CPU and was killed": 5 },
      },
    ]);
    const policy = loadPolicy();
    const category = resolveCategory(
      policy,
      { structureFiles: 1, trajectoryFiles: 0, mdIntent: false, physicsAuditRequested: false, assayRows: 0 },
      "auto",
    );
    assert.ok(category);
    const plan = settlePlan(
      buildModulePlan(
        policy,
        category,
        [...IMPLEMENTED_MODULES, ...STRUCTURE_MODULES],
        new Set(["portfolio", "structures"]),
      ),
      new Map(),
    );
    const counts = countPlan(plan, { modules: result.work, rows: 6, unreadable: 0 });
    assert.equal(counts.claim_strength, "HYPOTHESIS");
    assert.deepEqual(counts.missing_required, [], "every required module ran");
    assert.match(
      counts.claim_reasons.join("; "),
      /molecular_docking assessed 1 of 6 \(16\.6%, below 80%\): 5 vina exceeded its CPU budget/,
    );
  });

  it("records a module that throws as failed with its error, and the run goes on", async (t) => {
    const { dir, structures } = await setUp(t);
    const result = await runStructureModules({
      log: createLogger("json", { write: () => {}, tty: false }),
      runDir: dir,
      workDir: join(dir, ".scratch-structures"),
      runId: "run_2",
      mode: "standard",
      planned: plannedOf("test_failing", "dynamics_nma"),
      structures,
      generatedAt: "2026-01-01T00:00:00Z",
      rows: async function* () {},
      modules: [failing, ...STRUCTURE_MODULES],
    });
    assert.deepEqual([...result.failures], [["test_failing", "tool crashed"]]);
    const nma = JSON.parse(await readFile(join(dir, "results", "dynamics_nma.json"), "utf8"));
    assert.equal(nma.structures[0].result.status, "executed");
    assert.equal(nma.structures[0].result.calpha_count, 4);
  });

  it("gives modules the docking cap setting, and probes tool versions only when a module that calls tools ran", async (t) => {
    const { dir, structures } = await setUp(t);
    const seen: number[] = [];
    const capped: StructureModule<number, string> = {
      ...perCompound,
      id: "test_capped",
      callsTools: true,
      assessStructure: async (context) => {
        seen.push(context.dockingMaxCompounds);
        return 0;
      },
    };
    let probes = 0;
    const options = {
      log: createLogger("json", { write: () => {}, tty: false }),
      runDir: dir,
      workDir: join(dir, ".scratch-structures"),
      runId: "run_3",
      mode: "standard",
      structures,
      generatedAt: "2026-01-01T00:00:00Z",
      rows: async function* () {},
      modules: [capped, perCompound],
      dockingMaxCompounds: 7,
      probeToolVersions: async () => {
        probes++;
        return { vina: "AutoDock Vina v1.2.3" };
      },
    };
    const pure = await runStructureModules({ ...options, planned: plannedOf("test_per_compound") });
    assert.equal(pure.toolVersions, null, "a module that calls no tool records no tool versions");
    assert.equal(probes, 0);
    const docked = await runStructureModules({ ...options, planned: plannedOf("test_capped") });
    assert.deepEqual(seen, [7]);
    assert.deepEqual(docked.toolVersions, { vina: "AutoDock Vina v1.2.3" });
    assert.equal(probes, 1);
  });
});
