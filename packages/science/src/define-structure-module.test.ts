import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  defineStructureModule,
  type StructureCompound,
  type StructureContext,
  type StructureModuleDefinition,
} from "./define-structure-module.ts";
import { ScienceError } from "./science-error.ts";
import { parseStructure } from "./structure/parse-structure.ts";

const RECEPTOR = [
  "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 20.00           C",
  "ATOM      2  CA  GLY A   2       3.800   0.000   0.000  1.00 25.00           C",
  "ATOM      3  CA  SER A   3       1.900   3.291   0.000  1.00 30.00           C",
].join("\n");

const context: StructureContext = {
  staged: { index: 0, path: "receptor.pdb", format: "pdb", pocket: null, entry: { ligand: null } },
  parsed: parseStructure(`${RECEPTOR}\n`, "pdb"),
  mode: "standard",
  runDir: "/nonexistent-run",
  workDir: "/nonexistent-run/scratch",
  dockingMaxCompounds: 500,
};

const compound = (index: number): StructureCompound => ({
  ok: true,
  row: { index, line: index + 1, candidateId: `C${index}`, name: null, smiles: "C", metadata: {} },
  chem: { parent_smiles: "C" },
});

/** Counts the structure's atoms once; each compound's record is its id and that count. */
const base: StructureModuleDefinition<number, string> = {
  id: "test_module",
  version: "0.0.1",
  method: { what: "test", citations: ["none"], data: [], validation: "none", limits: "none" },
  riskChannel: "biology",
  requiredInputs: ["structures"],
  assessStructure: async ({ parsed }) => parsed.atoms.length,
};

describe("defineStructureModule", () => {
  it("runs assessStructure once per structure, and says whether and how it takes compounds", async () => {
    let structures = 0;
    const perStructure = defineStructureModule({
      ...base,
      assessStructure: async ({ parsed }) => {
        structures++;
        return parsed.atoms.length;
      },
    });
    const run = await perStructure.assessStructure(context);
    assert.equal(run.result, 3);
    assert.equal(structures, 1);
    assert.equal(perStructure.compounds, null);
    assert.equal(perStructure.callsTools, false);
    const pooled = defineStructureModule({
      ...base,
      callsTools: true,
      perCompound: {
        pooled: true,
        chunk: 0,
        assess: async (_c, atoms, compounds) => compounds.map(() => `${atoms}`),
      },
    });
    // A chunk below 1 would give the pool empty chunks forever: it is one compound at least.
    assert.deepEqual(pooled.compounds, { pooled: true, chunk: 1 });
    assert.equal(pooled.callsTools, true);
  });

  it("gives a pooled module the whole chunk in one call, and finish returns chunks merged out of order in portfolio order", async () => {
    const calls: string[][] = [];
    const pooled = defineStructureModule({
      ...base,
      perCompound: {
        pooled: true,
        chunk: 2,
        assess: async (_context, atoms, compounds) => {
          calls.push(compounds.map((entry) => entry.row.candidateId));
          return compounds.map((entry) => `${entry.row.candidateId}:${atoms}`);
        },
      },
    });
    const run = await pooled.assessStructure(context);
    const first = await run.assess([compound(1), compound(2)]);
    const second = await run.assess([compound(3)]);
    assert.deepEqual(calls, [["C1", "C2"], ["C3"]]);
    // The second chunk finished first: its records still land after the first chunk's.
    run.merge(2, second);
    run.merge(0, first);
    assert.deepEqual(run.finish(), ["C1:3", "C2:3", "C3:3"]);
  });

  it("assesses a chunk of a module that is not pooled one compound at a time, in order", async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const oneAtATime = defineStructureModule({
      ...base,
      perCompound: {
        pooled: false,
        assess: async (_context, _atoms, entry) => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(entry.row.candidateId);
          running--;
          return entry.row.candidateId;
        },
      },
    });
    assert.deepEqual(oneAtATime.compounds, { pooled: false, chunk: 1 });
    const run = await oneAtATime.assessStructure(context);
    assert.deepEqual(await run.assess([compound(1), compound(2), compound(3)]), ["C1", "C2", "C3"]);
    assert.deepEqual(order, ["C1", "C2", "C3"]);
    assert.equal(most, 1);
  });

  it("refuses compounds given to a per-structure module, and a finish with a compound never merged (STRUCTURE_MODULE_MISUSED)", async () => {
    const perStructure = await defineStructureModule(base).assessStructure(context);
    await assert.rejects(perStructure.assess([compound(1)]), (error: unknown) => {
      assert.ok(error instanceof ScienceError);
      assert.equal(error.code, "STRUCTURE_MODULE_MISUSED");
      assert.match(error.message, /^test_module: given compounds, but it works per structure only/);
      return true;
    });
    const pooled = await defineStructureModule({
      ...base,
      perCompound: { pooled: true, chunk: 2, assess: async (_c, _a, compounds) => compounds.map(() => "x") },
    }).assessStructure(context);
    pooled.merge(2, ["c"]);
    assert.throws(
      () => pooled.finish(),
      (error: unknown) =>
        error instanceof ScienceError &&
        error.code === "STRUCTURE_MODULE_MISUSED" &&
        /compound position 0 was never merged/.test(error.message),
    );
  });

  it("reads a method card given as a function when asked, so a card naming run settings is built late", () => {
    let built = 0;
    const module = defineStructureModule({
      ...base,
      method: () => {
        built++;
        return { what: `built ${built}`, citations: [], data: [], validation: "", limits: "" };
      },
    });
    assert.equal(built, 0);
    assert.equal(module.method.what, "built 1");
  });
});
