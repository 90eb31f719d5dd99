import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { verifySealFolder } from "@svc/core";
import { startTestEntitlement, type TestEntitlement } from "./support/entitlement-harness.ts";
import { runCli } from "./support/run-cli.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const PRINCIPAL = "giants@example.com";
let service: TestEntitlement;
let token: string;

before(async () => {
  service = await startTestEntitlement();
  token = await service.tokenFor(PRINCIPAL);
  await service.grant(PRINCIPAL, 2);
});
after(async () => {
  await service?.close();
});

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
  const run = await runCli(
    [
      "--project-id",
      "demo",
      "--run-id",
      runId,
      "--input-root",
      staged.inputRoot,
      "--output-root",
      staged.outputRoot,
      "--entitlement-url",
      service.url,
      "--auth-mode",
      "dev",
      ...extra,
    ],
    { SVC_DEV_TOKEN: token },
  );
  assert.equal(run.code, 0, run.stderr);
  const runDir = join(staged.outputRoot, runId);
  const seal = join(runDir, "seal");
  const verification = verifySealFolder(
    {
      sealSvg: await readFile(join(seal, "seal.svg"), "utf8"),
      sealJson: await readFile(join(seal, "seal.json"), "utf8"),
      sealSig: await readFile(join(seal, "seal.sig"), "utf8"),
    },
    await service.trustedKeys(),
  );
  assert.equal(verification.state, "VERIFIED", verification.reason);
  const combined = JSON.parse(
    await readFile(join(runDir, "results", "combined_unified_computational_outputs.json"), "utf8"),
  );
  const byId = new Map<string, { assessment: string; assessment_reason: string | null }>(
    combined.compounds.map((c: { candidate_id: string }) => [c.candidate_id, c]),
  );
  const summary = JSON.parse(await readFile(join(runDir, "results", "summary.json"), "utf8"));
  const logic = JSON.parse(await readFile(join(runDir, "raw", "molecular_logic_raw.json"), "utf8"));
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
  assert.match(byId.get("HANG")?.assessment_reason ?? "", /longer than the per-molecule time budget of 5 s/);
  assert.equal(summary.compounds.unassessed, 3);
  assert.equal(
    (run.stderr.match(/RDKit worker replaced/g) ?? []).length,
    3,
    "every replacement is logged with its cause",
  );
});
