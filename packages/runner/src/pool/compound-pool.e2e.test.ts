import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { WORKER_HEAP_LIMITS } from "../heap-limits.ts";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { CompoundPool, type PoolOutcome } from "./compound-pool.ts";
import { mapInOrder } from "./ordered-map.ts";

const row = (index: number, smiles: string): PortfolioRow => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles,
  metadata: {},
});

async function* rowsOf(smiles: readonly string[]): AsyncGenerator<PortfolioRow> {
  for (const [at, text] of smiles.entries()) yield row(at + 1, text);
}

const ASPIRIN = "CC(=O)Oc1ccccc1C(=O)O";
const IMATINIB = "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1";

test("a molecule that traps RDKit WebAssembly becomes unassessed and the next molecules still prepare", async (t) => {
  const replaced: string[] = [];
  const pool = await CompoundPool.start({ size: 1, timeoutMs: 60_000, onReplace: (r) => replaced.push(r) });
  t.after(() => pool.close());
  // A 1,000-carbon chain: "memory access out of bounds" in RDKit 2026.09 WebAssembly (issue 10).
  const outcomes: PoolOutcome[] = [];
  for await (const outcome of mapInOrder(rowsOf([ASPIRIN, "C".repeat(1000), IMATINIB]), 4, (r) =>
    pool.prepare(r),
  ))
    outcomes.push(outcome);
  assert.deepEqual(
    outcomes.map((o) => o.kind),
    ["prepared", "unassessed", "prepared"],
  );
  assert.match(
    (outcomes[1] as { reason: string }).reason,
    /RDKit failed on this molecule \(RuntimeError: memory access out of bounds\)/,
  );
  assert.equal(replaced.length, 1);
  const last = outcomes[2] as { compound: { ok: boolean; chem?: { inchikey: string } } };
  assert.equal(last.compound.chem?.inchikey, "KTUFNOKKBVMGRW-UHFFFAOYSA-N");
});

test("a molecule over the CPU budget becomes unassessed with the budget named; the pool goes on (issue 37 item 3: CPU time, not wall time)", async (t) => {
  const pool = await CompoundPool.start({ size: 2, timeoutMs: 5_000 });
  t.after(() => pool.close());
  // A 700-carbon chain hangs RDKit WebAssembly (issue 10).
  const outcomes: PoolOutcome[] = [];
  for await (const outcome of mapInOrder(rowsOf(["C".repeat(700), ASPIRIN, ASPIRIN, IMATINIB]), 8, (r) =>
    pool.prepare(r),
  ))
    outcomes.push(outcome);
  assert.deepEqual(
    outcomes.map((o) => o.kind),
    ["unassessed", "prepared", "prepared", "prepared"],
  );
  assert.match((outcomes[0] as { reason: string }).reason, /per-molecule CPU budget of 5 s/);
});

test("a busy machine does not fail a molecule that is progressing: the budget counts the worker thread's CPU, not the wall clock (issue 37 item 3)", async (t) => {
  // A budget of 1.5 s of CPU, and the other core(s) kept busy by two spinning processes: the
  // wall-clock time of each molecule grows, its CPU time does not.
  const spinners = [0, 1].map(() => spawn(process.execPath, ["-e", "for(;;);"], { stdio: "ignore" }));
  t.after(() => {
    for (const spinner of spinners) spinner.kill("SIGKILL");
  });
  const pool = await CompoundPool.start({ size: 1, timeoutMs: 1_500 });
  t.after(() => pool.close());
  const outcomes: PoolOutcome[] = [];
  for await (const outcome of mapInOrder(rowsOf([IMATINIB, ASPIRIN, IMATINIB]), 4, (r) => pool.prepare(r)))
    outcomes.push(outcome);
  assert.deepEqual(
    outcomes.map((o) => o.kind),
    ["prepared", "prepared", "prepared"],
  );
});

test("results come back in input order and are identical with one worker or two", async (t) => {
  const smiles = Array.from({ length: 40 }, (_, at) => (at % 3 === 0 ? IMATINIB : `${"C".repeat(at + 1)}O`));
  const runWith = async (size: number) => {
    const pool = await CompoundPool.start({ size, timeoutMs: 60_000 });
    t.after(() => pool.close());
    const out: string[] = [];
    for await (const outcome of mapInOrder(rowsOf(smiles), 16, (r) => pool.prepare(r)))
      out.push(JSON.stringify(outcome));
    return out;
  };
  const one = await runWith(1);
  const two = await runWith(2);
  assert.equal(one.length, smiles.length);
  assert.deepEqual(two, one);
  assert.deepEqual(
    one.map((text) => JSON.parse(text).compound.row.index),
    smiles.map((_, at) => at + 1),
  );
});

test("analyse: each module's assessment of one compound comes back from a worker", async (t) => {
  const pool = await CompoundPool.start({ size: 1, timeoutMs: 60_000 });
  t.after(() => pool.close());
  const prepared = await pool.prepare(row(1, "O=C(O)c1ccccc1N=Nc1ccccc1"));
  assert.equal(prepared.kind, "prepared");
  const { compound } = prepared as Extract<PoolOutcome, { kind: "prepared" }>;
  const outcome = await pool.analyse(compound, ["molecular_logic", "toxicity_profile", "no_such_module"]);
  assert.equal(outcome.kind, "analysed");
  const { analysis } = outcome as Extract<typeof outcome, { kind: "analysed" }>;
  // defineModule wraps a parsed compound's assessment as { assessed } (define-module.ts).
  const logic = analysis.assessments.molecular_logic as {
    ok: true;
    value: { assessed: { status: string; duplicate_of: null } };
  };
  assert.equal(logic.ok, true);
  assert.equal(logic.value.assessed.status, "parsed");
  assert.equal(logic.value.assessed.duplicate_of, null, "run state is merge's, on the main thread");
  const toxicity = analysis.assessments.toxicity_profile as {
    ok: true;
    value: { assessed: { pains: string[] } };
  };
  assert.equal(toxicity.ok, true);
  assert.ok(Array.isArray(toxicity.value.assessed.pains));
  assert.deepEqual(analysis.assessments.no_such_module, {
    ok: false,
    error: "module no_such_module is not implemented",
  });
});

test("every worker runs under WORKER_HEAP_LIMITS, not Node's host-sized defaults", async (t) => {
  const pool = await CompoundPool.start({ size: 2, timeoutMs: 60_000 });
  t.after(() => pool.close());
  await pool.prepare(row(1, ASPIRIN));
  const { maxOldGenerationSizeMb = 0, maxYoungGenerationSizeMb = 0 } = WORKER_HEAP_LIMITS;
  const stats = await pool.heapStatistics();
  assert.equal(stats.length, 2);
  for (const { heap_size_limit } of stats) {
    // V8's limit is the old generation plus the young generation's share it counts.
    assert.ok(heap_size_limit > maxOldGenerationSizeMb * 2 ** 20, `limit ${heap_size_limit}`);
    assert.ok(
      heap_size_limit <= (maxOldGenerationSizeMb + maxYoungGenerationSizeMb) * 2 ** 20,
      `limit ${heap_size_limit}`,
    );
  }
});
