import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { runArgs, runCli } from "./support/run-cli.ts";
import { readJson, verifyRunSeal } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const stand = entitlementForFile("giants@example.com", 2);

// Issue 10: a ~1,000-carbon chain and a 900-atom PEG trap RDKit WebAssembly ("memory access out
// of bounds"); a 700-carbon chain hangs it. Each must cost one compound, never the run.
const PORTFOLIO = `candidate_id,name,smiles
A1,aspirin,CC(=O)Oc1ccccc1C(=O)O
GIANT,C1000 chain,${"C".repeat(1000)}
PEG,PEG 900 atoms,O${"CCO".repeat(300)}
A2,caffeine,Cn1cnc2c1c(=O)n(C)c(=O)n2C
HANG,C700 chain,${"C".repeat(700)}
A3,imatinib,Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1
`;

async function auditGiants(runId: string, extra: string[], t: { after: (fn: () => Promise<void>) => void }) {
  const staged = await stageWithPortfolio(PORTFOLIO, t);
  const run = await runCli(runArgs({ runId, staged, entitlementUrl: stand.service.url, extra }), {
    SVC_DEV_TOKEN: stand.token,
  });
  assert.equal(run.code, 0, run.stderr);
  const runDir = join(staged.outputRoot, runId);
  const verification = await verifyRunSeal(runDir, await stand.service.trustedKeys());
  assert.equal(verification.state, "VERIFIED", verification.reason);
  const combined = await readJson(join(runDir, "results", "combined_unified_computational_outputs.json"));
  const byId = new Map<string, { assessment: string; assessment_reason: string | null }>(
    combined.compounds.map((c: { candidate_id: string }) => [c.candidate_id, c]),
  );
  const summary = await readJson(join(runDir, "results", "summary.json"));
  const logic = await readJson(join(runDir, "raw", "molecular_logic_raw.json"));
  return { run, byId, summary, logic };
}

test("a giant chain, a 900-atom PEG and a hanging molecule are stopped by the size guard: one unassessed compound each, run sealed", async (t) => {
  const { byId, summary, logic } = await auditGiants("run_guarded", [], t);
  for (const id of ["A1", "A2", "A3"]) assert.equal(byId.get(id)?.assessment, "ok", id);
  assert.match(byId.get("GIANT")?.assessment_reason ?? "", /^1000 heavy atoms, over the limit of 300/);
  assert.match(byId.get("PEG")?.assessment_reason ?? "", /^901 heavy atoms/);
  assert.match(byId.get("HANG")?.assessment_reason ?? "", /^700 heavy atoms/);
  assert.equal(summary.compounds.total, 6);
  assert.equal(summary.compounds.unassessed, 3);
  assert.equal(summary.compounds.unparseable, 0, "too large is not unparseable");
  assert.deepEqual(logic.result.summary.unassessed_candidates, ["GIANT", "PEG", "HANG"]);
});

test("past the guard, RDKit faults and a hang are caught by the worker pool: one unassessed compound each, run sealed", async (t) => {
  const { run, byId, summary } = await auditGiants(
    "run_unguarded",
    ["--max-heavy-atoms", "5000", "--molecule-timeout-sec", "5", "--workers", "2"],
    t,
  );
  for (const id of ["A1", "A2", "A3"]) assert.equal(byId.get(id)?.assessment, "ok", id);
  for (const id of ["GIANT", "PEG"]) {
    assert.equal(byId.get(id)?.assessment, "unassessed", id);
    assert.match(
      byId.get(id)?.assessment_reason ?? "",
      /RDKit failed on this molecule \(RuntimeError: memory access out of bounds\)/,
    );
  }
  assert.match(byId.get("HANG")?.assessment_reason ?? "", /per-molecule CPU budget of 5 s/);
  assert.equal(summary.compounds.unassessed, 3);
  assert.equal(
    (run.stderr.match(/RDKit worker replaced/g) ?? []).length,
    3,
    "every replacement is logged with its cause",
  );
});
