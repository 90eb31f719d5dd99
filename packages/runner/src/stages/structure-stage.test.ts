import assert from "node:assert/strict";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  defineStructureModule,
  IMPLEMENTED_MODULES,
  type StructureModuleDefinition,
} from "@svc/science/modules";
import { STRUCTURE_MODULES } from "@svc/science/structure-modules";
import { makeTempDir } from "@svc/testing";
import { parseSources } from "../inputs/sources.ts";
import { stageStructures } from "../inputs/structure-inputs.ts";
import { createLogger } from "../log.ts";
import { buildModulePlan, countPlan, settlePlan } from "../plan/module-plan.ts";
import { loadPolicy } from "../plan/policy.ts";
import { resolveCategory } from "../plan/resolve-category.ts";
import type { PlannedRun } from "./plan-stage.ts";
import { openShardDir, SHARDS_DIR } from "./shard-stage.ts";
import {
  runStructureModules,
  type StructureModulesInput,
  type StructureRunContext,
} from "./structure-stage.ts";
import type { ValidatedRow } from "./validate-rows.ts";

type Owner = { after: (fn: () => unknown) => void };

const RECEPTOR = [
  "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C",
  "ATOM      2  CA  GLY A   2       3.800   0.000   0.000  1.00 25.00           C",
  "ATOM      3  CA  SER A   3       1.900   3.291   0.000  1.00 30.00           C",
  "ATOM      4  CA  THR A   4       1.900   1.097   3.103  1.00 35.00           C",
].join("\n");

/** A module of our own that works per compound, one at a time: it counts atoms and echoes ids. */
const perCompoundDefinition: StructureModuleDefinition<number, string> = {
  id: "test_per_compound",
  version: "0.0.1",
  method: { what: "test", citations: ["none"], data: [], validation: "none", limits: "none" },
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  assessStructure: async ({ parsed }) => parsed.atoms.length,
  perCompound: {
    pooled: false,
    assess: async (_context, atoms, compound) => `${compound.row.candidateId}:${atoms}`,
  },
};
const perCompound = defineStructureModule(perCompoundDefinition);
const failing = defineStructureModule({
  ...perCompoundDefinition,
  id: "test_failing",
  assessStructure: async () => {
    throw new Error("tool crashed");
  },
});

function plannedOf(...ids: string[]): PlannedRun {
  const modules = ids.map((module_id) => ({ module_id, outcome: "planned" }));
  return { plan: { modules } } as unknown as PlannedRun;
}

function row(candidateId: string, ok: boolean, index = 1): ValidatedRow {
  const input = { index, line: index + 1, candidateId, name: null, smiles: "C", metadata: {} };
  return {
    status: ok ? "ok" : "invalid",
    reason: null,
    compound: { row: input, ok, error: "x" },
  } as unknown as ValidatedRow;
}

/**
 * The part of the run context the structure stage reads: one pod unless `shard` says which of how
 * many; scratch in `<run>/.scratch` unless named (each pod of a sharded run has its own).
 */
function contextOf(
  runDir: string,
  settings: {
    runId: string;
    scratch?: string;
    dockingMaxCompounds?: number;
    workers?: number;
    shard?: { index: number; count: number };
  },
): StructureRunContext {
  const scratch = join(runDir, settings.scratch ?? ".scratch");
  return {
    log: createLogger("json", { write: () => {}, tty: false }),
    runDir,
    startedAt: "2026-01-01T00:00:00Z",
    interruption: { signal: null },
    scratch: { path: (name) => join(scratch, name) },
    config: {
      runId: settings.runId,
      mode: "standard",
      dockingMaxCompounds: settings.dockingMaxCompounds ?? 100,
      workers: settings.workers ?? 1,
      shards: settings.shard?.count ?? 1,
      shardIndex: settings.shard?.index ?? 0,
      shardWaitSec: 30,
    },
  };
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
    const result = await runStructureModules(contextOf(dir, { runId: "run_1" }), {
      planned: plannedOf("test_per_compound"),
      structures,
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
    const timingOut = defineStructureModule<number, unknown>({
      ...perCompoundDefinition,
      id: "molecular_docking",
      perCompound: {
        pooled: false,
        assess: async (_context, _atoms, compound) =>
          compound.row.candidateId === "A"
            ? { candidate_id: "A", status: "docked", reason: null }
            : {
                candidate_id: compound.row.candidateId,
                status: "not_assessed",
                reason: "vina exceeded its CPU budget of 600000 ms CPU and was killed",
              },
      },
    });
    const result = await runStructureModules(contextOf(dir, { runId: "run_1" }), {
      planned: plannedOf("molecular_docking"),
      structures,
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
    const result = await runStructureModules(contextOf(dir, { runId: "run_2" }), {
      planned: plannedOf("test_failing", "dynamics_nma"),
      structures,
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
    const capped = defineStructureModule({
      ...perCompoundDefinition,
      id: "test_capped",
      callsTools: true,
      assessStructure: async (context) => {
        seen.push(context.dockingMaxCompounds);
        return 0;
      },
    });
    let probes = 0;
    const ctx = contextOf(dir, { runId: "run_3", dockingMaxCompounds: 7 });
    const input = {
      structures,
      rows: async function* () {},
      modules: [capped, perCompound],
      probeToolVersions: async () => {
        probes++;
        return { vina: "AutoDock Vina v1.2.3" };
      },
    };
    const pure = await runStructureModules(ctx, { ...input, planned: plannedOf("test_per_compound") });
    assert.equal(pure.toolVersions, null, "a module that calls no tool records no tool versions");
    assert.equal(probes, 0);
    const docked = await runStructureModules(ctx, { ...input, planned: plannedOf("test_capped") });
    assert.deepEqual(seen, [7]);
    assert.deepEqual(docked.toolVersions, { vina: "AutoDock Vina v1.2.3" });
    assert.equal(probes, 1);
  });

  it("runs a pooled module's chunks on up to `lanes` at once and keeps its records in portfolio order whatever finishes first", async (t) => {
    const { dir, structures } = await setUp(t);
    let running = 0;
    let most = 0;
    const chunks: string[][] = [];
    const pooled = defineStructureModule({
      ...perCompoundDefinition,
      id: "test_pooled",
      perCompound: {
        pooled: true,
        chunk: 2,
        assess: async (_context, _atoms, compounds) => {
          const ids = compounds.map((compound) => compound.row.candidateId);
          chunks.push(ids);
          running++;
          most = Math.max(most, running);
          // Earlier chunks finish later: the order of the records must not follow completion.
          await new Promise((resolve) => setTimeout(resolve, 60 - 8 * chunks.length));
          running--;
          return ids.map((id) => `${id}:done`);
        },
      },
    });
    const ids = ["A", "B", "C", "D", "E", "F", "G"];
    const result = await runStructureModules(contextOf(dir, { runId: "run_pool", workers: 3 }), {
      planned: plannedOf("test_pooled"),
      structures,
      rows: async function* () {
        for (const [at, id] of ids.entries()) yield row(id, id !== "C", at + 1);
      },
      modules: [pooled],
    });
    assert.deepEqual([...result.failures], []);
    assert.equal(most, 3, "three chunks in work at once, never more");
    assert.deepEqual(
      chunks,
      [
        ["A", "B"],
        ["D", "E"],
        ["F", "G"],
      ],
      "chunks of 2 parsed compounds in portfolio order",
    );
    const written = JSON.parse(await readFile(join(dir, "results", "test_pooled.json"), "utf8"));
    assert.deepEqual(written.structures[0].compounds, [
      "A:done",
      "B:done",
      "D:done",
      "E:done",
      "F:done",
      "G:done",
    ]);
  });

  for (const pods of [2, 4])
    it(`splits a pooled module by compound across ${pods} pods of a sharded run: each compound docked once, by its own pod, each pod capped by its own budget, one merged results file from index 0 in portfolio order`, async (t) => {
      const { dir, structures } = await setUp(t);
      const ids = Array.from({ length: 13 }, (_, at) => `M${at + 1}`);
      const dockedBy = new Map<string, number[]>();
      const budget = 3;
      const moduleFor = (pod: number) =>
        defineStructureModule<number, unknown>({
          ...perCompoundDefinition,
          id: "molecular_docking",
          perCompound: {
            pooled: true,
            chunk: 2,
            assess: async (context, _atoms, compounds) => {
              let given = dockedBy.get(`given-${pod}`)?.length ?? 0;
              return compounds.map((compound) => {
                const id = compound.row.candidateId;
                given++;
                dockedBy.set(
                  `given-${pod}`,
                  Array.from({ length: given }, () => pod),
                );
                if (given > context.dockingMaxCompounds)
                  return { candidate_id: id, status: "not_assessed", reason: "cap" };
                dockedBy.set(id, [...(dockedBy.get(id) ?? []), pod]);
                return { candidate_id: id, status: "docked", reason: null, pod };
              });
            },
          },
        });
      // Pod k's own rows, as its validation left them in shards/<k>/ (round robin by row index).
      for (let pod = 0; pod < pods; pod++) await openShardDir(dir, pod);
      const podOf = (pod: number) =>
        contextOf(dir, {
          runId: "run_sharded",
          scratch: `.scratch-${pod}`,
          dockingMaxCompounds: budget,
          workers: 2,
          shard: { index: pod, count: pods },
        });
      const inputOf = (pod: number): StructureModulesInput => ({
        planned: plannedOf("molecular_docking", "dynamics_nma"),
        structures,
        rows: async function* () {
          for (const [at, id] of ids.entries())
            if (pod === 0 || at % pods === pod) yield row(id, id !== "M5", at + 1);
        },
        modules: [moduleFor(pod), ...STRUCTURE_MODULES.filter((module) => module.id === "dynamics_nma")],
      });
      const results = await Promise.all(
        Array.from({ length: pods }, (_, pod) =>
          runStructureModules(podOf(pods - 1 - pod), inputOf(pods - 1 - pod)),
        ),
      );
      const index0 = results[pods - 1];
      assert.ok(index0);
      assert.deepEqual([...index0.failures], []);
      for (const other of results.slice(0, -1)) {
        assert.deepEqual(other.files, [], "only index 0 writes results files");
      }
      assert.deepEqual([...index0.files].sort(), [
        join("results", "dynamics_nma.json"),
        join("results", "molecular_docking.json"),
      ]);
      const written = JSON.parse(await readFile(join(dir, "results", "molecular_docking.json"), "utf8"));
      const records = written.structures[0].compounds as {
        candidate_id: string;
        status: string;
        pod?: number;
      }[];
      const parsed = ids.filter((id) => id !== "M5");
      assert.deepEqual(
        records.map((record) => record.candidate_id),
        parsed,
        "every parsed compound once, in portfolio order",
      );
      for (const record of records) {
        const at = ids.indexOf(record.candidate_id);
        if (record.status === "docked") {
          assert.deepEqual(
            dockedBy.get(record.candidate_id),
            [at % pods],
            `${record.candidate_id} docked once, by pod ${at % pods}`,
          );
          assert.equal(record.pod, at % pods);
        }
      }
      // Each pod docks at most its budget of its own slice; the rest are counted, never silent.
      const perPod = Array.from(
        { length: pods },
        (_, pod) => parsed.filter((id) => ids.indexOf(id) % pods === pod).length,
      );
      const docked = perPod.reduce((sum, count) => sum + Math.min(count, budget), 0);
      assert.deepEqual(index0.work, [
        {
          module_id: "molecular_docking",
          assessed: docked,
          expected: parsed.length,
          not_done:
            docked === parsed.length ? {} : { "past the per-pod docking budget": parsed.length - docked },
        },
      ]);
      assert.ok(await readFile(join(dir, SHARDS_DIR, "1", "structure-molecular_docking.json"), "utf8"));
    });

  it("a pod whose pooled module throws fails that module on index 0 with the pod's error", async (t) => {
    const { dir, structures } = await setUp(t);
    await mkdir(join(dir, SHARDS_DIR), { recursive: true });
    for (const pod of [0, 1]) await openShardDir(dir, pod);
    const moduleFor = (pod: number) =>
      defineStructureModule<number, unknown>({
        ...perCompoundDefinition,
        id: "molecular_docking",
        perCompound: {
          pooled: true,
          chunk: 1,
          assess: async (_context, _atoms, compounds) => {
            if (pod === 1) throw new Error("vina is not installed");
            return compounds.map((compound) => compound.row.candidateId);
          },
        },
      });
    const results = await Promise.all(
      [1, 0].map((pod) =>
        runStructureModules(
          contextOf(dir, {
            runId: "run_sharded",
            scratch: `.scratch-${pod}`,
            shard: { index: pod, count: 2 },
          }),
          {
            planned: plannedOf("molecular_docking"),
            structures,
            rows: async function* () {
              for (const [at, id] of ["A", "B", "C"].entries()) yield row(id, true, at + 1);
            },
            modules: [moduleFor(pod)],
          },
        ),
      ),
    );
    assert.deepEqual(
      [...(results[1]?.failures ?? [])],
      [["molecular_docking", "shard 1: vina is not installed"]],
    );
    await assert.rejects(stat(join(dir, "results", "molecular_docking.json")), { code: "ENOENT" });
  });
});
