import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parseCsv } from "@svc/testing";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { readJson } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const stand = entitlementForFile("offtarget@example.com", 1);

// Propranolol is a DrugCentral drug (it finds itself); cyclododecane has no DrugCentral drug near it.
const PORTFOLIO =
  "candidate_id,name,smiles\nP1,propranolol,CC(C)NCC(O)COc1cccc2ccccc12\nP2,cyclododecane,C1CCCCCCCCCCC1\n";

describe("offtarget_screening in a ligand-only run", () => {
  test("runs as an optional module: per compound its top targets or out_of_domain in the raw record, and its one-line column in report.csv", async (t) => {
    const staged = await stageWithPortfolio(PORTFOLIO, t, {});
    const result = await stand.run(staged, "run_offtarget");
    assert.equal(result.code, 0, result.stderr);
    const runDir = join(staged.outputRoot, "run_offtarget");
    const raw = await readJson(join(runDir, "raw/offtarget_screening_raw.json"));
    assert.equal(raw.status, "executed", raw.reason);
    const [propranolol, ring] = raw.result.compounds;
    assert.equal(propranolol.in_domain, true);
    // in domain, the drugs that lent each target are named inside it (neighbours is left out: card size)
    assert.equal(propranolol.neighbours, null);
    assert.ok(propranolol.targets.length > 0);
    assert.equal(propranolol.targets[0].drugs[0].drug, "propranolol");
    assert.equal(ring.in_domain, false);
    assert.match(ring.reason, /^out_of_domain: /);
    assert.equal(ring.targets, null);
    assert.equal(ring.neighbours.length, 1, "out of domain, the single nearest drug is named");
    assert.equal(raw.result.summary.calls_shown, raw.result.summary.validation.beats_baselines);
    const csv = parseCsv(await readFile(join(runDir, "results", "report.csv"), "utf8"));
    const column = (csv[0] ?? []).indexOf("offtarget_screening.similar_drug_targets_hypothesis");
    assert.ok(column >= 0, "report.csv has the column");
    const p1 = csv.find((line) => line[1] === "P1");
    assert.equal(p1?.[column], propranolol.similar_drug_targets_hypothesis);
    const html = await readFile(join(runDir, "results", "report.html"), "utf8");
    assert.match(html, /data-panel="other-offtarget_screening"/);
  });
});
