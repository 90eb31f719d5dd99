import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { runCli } from "./support/run-cli.ts";
import { readJson } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const stand = entitlementForFile("targets@example.com", 2);

const PORTFOLIO =
  "candidate_id,name,smiles\nP1,propranolol,CC(C)NCC(O)COc1cccc2ccccc12\nP2,caffeine,Cn1cnc2c1c(=O)n(C)c(=O)n2C\n";
const TARGETS = "gene_symbol,uniprot_id,target_name\nADRB1,P08588,beta-1 adrenergic receptor\nABL1,,\n";

function stage(t: { after: (fn: () => Promise<void>) => void }, targets: string | null) {
  return stageWithPortfolio(PORTFOLIO, t, targets === null ? {} : { targets_csv: ["targets.csv", targets] });
}

const run = stand.run;

describe("targets.csv reaches target_biology_risk", () => {
  test("staged, the target side says which targets are on the safety panels; not staged, the module still runs and says missing_input", async (t) => {
    const withTargets = await stage(t, TARGETS);
    const staged = await run(withTargets, "run_targets");
    assert.equal(staged.code, 0, staged.stderr);
    const raw = await readJson(
      join(withTargets.outputRoot, "run_targets", "raw/target_biology_risk_raw.json"),
    );
    assert.equal(raw.status, "executed", raw.reason);
    const side = raw.result.summary.target_side;
    assert.equal(side.status, "assessed");
    assert.deepEqual(
      side.targets.map((target: { identifier: string; on_safety_panel: boolean }) => [
        target.identifier,
        target.on_safety_panel,
      ]),
      [
        ["ADRB1", true],
        ["ABL1", false],
      ],
    );
    const [propranolol] = raw.result.compounds;
    assert.equal(propranolol.target_side, "assessed");
    const beta1 = propranolol.off_target_liabilities.find(
      (l: { gene_symbol: string }) => l.gene_symbol === "ADRB1",
    );
    assert.equal(beta1?.staged_target, true);

    const without = await stage(t, null);
    const plain = await run(without, "run_no_targets");
    assert.equal(plain.code, 0, plain.stderr);
    const runDir = join(without.outputRoot, "run_no_targets");
    const rawPlain = await readJson(join(runDir, "raw/target_biology_risk_raw.json"));
    assert.equal(rawPlain.status, "executed", rawPlain.reason);
    assert.equal(rawPlain.result.summary.target_side.status, "missing_input");
    assert.ok(
      rawPlain.result.compounds.every((c: { target_side: string }) => c.target_side === "missing_input"),
    );
    const summary = await readJson(join(runDir, "results/summary.json"));
    assert.ok(!summary.missing_proof.includes("target_biology_risk"), JSON.stringify(summary.missing_proof));
  });

  test("svc-runner validate reads the target table without contacting anyone", async (t) => {
    const staged = await stage(t, TARGETS);
    const validate = await runCli(["validate", "--project-id", "demo", "--input-root", staged.inputRoot], {});
    assert.equal(validate.code, 0, validate.stderr);
    const printed = JSON.parse(validate.stdout);
    assert.deepEqual(printed.targets, { rows: 2 });
    assert.equal(printed.charged, false);
  });
});
