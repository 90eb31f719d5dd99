import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parseCsv } from "@svc/testing";
import { entitlementForFile } from "./support/entitlement-harness.ts";
import { REPO, runCli } from "./support/run-cli.ts";
import { readJson } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const PRINCIPAL = "assays@example.com";
const stand = entitlementForFile(PRINCIPAL, 3);

// 40 compounds of the ChEMBL series CHEMBL2321810 with their measured pIC50 (packages/science/data,
// PROVENANCE.md): a real series with real activities.
const DATA = join(REPO, "packages", "science", "data");
const SERIES = readFileSync(join(DATA, "chembl2321810.smi"), "utf8")
  .trim()
  .split("\n")
  .slice(0, 40)
  .map((line) => line.split(/\s+/) as [string, string]);
const PIC50 = new Map(
  readFileSync(join(DATA, "chembl2321810-act.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(",") as [string, string]),
);
const PORTFOLIO = `candidate_id,smiles\n${SERIES.map(([smiles, id]) => `C${id},${smiles}`).join("\n")}\n`;
const ASSAYS = `Candidate_ID;Assay_ID;pChEMBL Value\n${SERIES.map(([, id]) => `C${id};CHEMBL2321810;${PIC50.get(id)}`).join("\n")}\n`;

function stageWithAssays(assays: string, t: { after: (fn: () => Promise<void>) => void }) {
  return stageWithPortfolio(PORTFOLIO, t, { assays_csv: ["assays.csv", assays] });
}

const run = stand.run;
const runsRemaining = (runId: string) => stand.service.check(stand.token, runId);

describe("a project with assays.csv", () => {
  test("routes to SMALL_MOLECULE__HAS_LABELED_ASSAYS and sar_explorer runs on the joined activities", async (t) => {
    const staged = await stageWithAssays(ASSAYS, t);
    const result = await run(staged, "run_assays");
    assert.equal(result.code, 0, result.stderr);
    const runDir = join(staged.outputRoot, "run_assays");
    const summary = await readJson(join(runDir, "results/summary.json"));
    assert.equal(summary.category_id, "SMALL_MOLECULE__HAS_LABELED_ASSAYS");
    const raw = await readJson(join(runDir, "raw/sar_explorer_raw.json"));
    assert.equal(raw.status, "executed", raw.reason);
    assert.equal(raw.result.compounds.length, 40);
    // The activities travelled with every row through the worker pool and the prepared-row cache.
    for (const [index, [, id]] of SERIES.entries()) {
      const compound = raw.result.compounds[index];
      assert.equal(compound.candidate_id, `C${id}`);
      assert.deepEqual(compound.activities, { CHEMBL2321810: Number(PIC50.get(id)) });
      assert.ok(compound.murcko_scaffold, `C${id} has no scaffold`);
    }
    const sar = raw.result.summary;
    assert.equal(sar.with_activities, 40);
    assert.deepEqual(sar.assays, ["CHEMBL2321810"]);
    assert.ok(sar.scaffold_series.total > 0);
    assert.ok(sar.per_assay[0].matched_pairs.total > 0, "no matched pair in 40 compounds of one series");
    assert.equal(sar.per_assay[0].activity_cliffs.pairs_scored, (40 * 39) / 2);
    assert.match(JSON.stringify(sar.method.citations), /Bemis & Murcko/);
    // y_scramble_validation, the category's required assay module, ran on the same joined activities.
    const scramble = await readJson(join(runDir, "raw/y_scramble_validation_raw.json"));
    assert.equal(scramble.status, "executed", scramble.reason);
    const model = scramble.result.summary.assays.CHEMBL2321810;
    assert.equal(model.status, "assessed", model.reason);
    assert.equal(model.compounds, 40);
    assert.equal(model.scrambles.q2.length, 100);
    assert.equal(model.verdict, model.scrambles.max_q2 < model.q2 ? "pass" : "fail");
    assert.ok(
      !summary.missing_proof?.includes("y_scramble_validation"),
      JSON.stringify(summary.missing_proof),
    );
    // The report's assay section shows both modules' portfolio findings.
    const report = await readFile(join(runDir, "results/report.html"), "utf8");
    assert.match(report, /<section id="assays">/);
    assert.ok(report.includes(`<td>CHEMBL2321810</td><td>40</td><td>${Number(model.q2.toFixed(3))}</td>`));
    assert.match(report, /<th>Activity cliff<\/th>/);
  });

  test("censored IC50s and n.d. reach the order as written: p < bound in report-summary.csv, only exact values to the models (issue 37 item 6)", async (t) => {
    const ten = SERIES.slice(0, 10);
    const nM = (id: string) => (10 ** (9 - Number(PIC50.get(id)))).toPrecision(4);
    const [first, second, third] = ten.map(([, id]) => id);
    const rows = ten.map(([, id]) =>
      id === first ? `C${id},>100000` : id === second ? `C${id},n.d.` : `C${id},${nM(id)}`,
    );
    // Beside an exact value, a censored row is left out, not averaged in.
    rows.push(`C${third},>50000`);
    const staged = await stageWithPortfolio(
      `candidate_id,smiles\n${ten.map(([smiles, id]) => `C${id},${smiles}`).join("\n")}\n`,
      t,
      { assays_csv: ["ic50.csv", `Compound ID,IC50 (nM)\n${rows.join("\n")}\n`] },
    );
    const result = await run(staged, "run_censored");
    assert.equal(result.code, 0, result.stderr);
    const runDir = join(staged.outputRoot, "run_censored");
    const [header = [], ...summary] = parseCsv(
      await readFile(join(runDir, "results/report-summary.csv"), "utf8"),
    );
    const cell = (id: string, label: string) =>
      summary.find((row) => row[1] === `C${id}`)?.[header.indexOf(label)];
    // IC50 > 100 µM is pActivity < 4, in pActivity terms.
    assert.equal(cell(first as string, "pActivity (assays_csv)"), "4");
    assert.equal(cell(first as string, "pActivity relation"), "<");
    assert.equal(cell(second as string, "pActivity (assays_csv)"), "");
    assert.equal(cell(third as string, "pActivity relation"), "measured");
    assert.equal(
      Number(cell(third as string, "pActivity (assays_csv)")),
      Number((9 - Math.log10(Number(nM(third as string)))).toFixed(4)),
    );
    const sar = (await readJson(join(runDir, "raw/sar_explorer_raw.json"))).result.summary;
    assert.equal(
      sar.with_activities,
      8,
      "the censored-only and the n.d. compound have no number for the models",
    );
  });

  test("svc-runner validate reads the assay table and plans the category without contacting anyone", async (t) => {
    const staged = await stageWithAssays(ASSAYS, t);
    stand.proxy.paths.length = 0;
    const validate = await runCli(["validate", "--project-id", "demo", "--input-root", staged.inputRoot], {});
    assert.equal(validate.code, 0, validate.stderr);
    const out = JSON.parse(validate.stdout);
    assert.equal(out.category_id, "SMALL_MOLECULE__HAS_LABELED_ASSAYS");
    assert.deepEqual(out.assays, {
      rows: 40,
      censored_rows: 0,
      missing_rows: 0,
      compounds: 40,
      assay_ids: ["CHEMBL2321810"],
    });
    assert.equal(out.charged, false);
    assert.deepEqual(stand.proxy.paths, []);
  });

  test("a bad assays.csv is refused before the charge: exit 2, the file, line and field named, nothing consumed", async (t) => {
    const lines = ASSAYS.trim().split("\n");
    const cases: [string, RegExp][] = [
      [
        `candidate_id,value,unit\n${SERIES.slice(0, 3)
          .map(([, id], at) => `C${id},${at === 2 ? "-3" : "12"},nM`)
          .join("\n")}\n`,
        /ASSAYS_INVALID: 01_sources\/assays\.csv line 4, field value: -3 is not positive/,
      ],
      [
        `candidate_id,value,unit\nC${SERIES[0]?.[1]},12,ppm\n`,
        /ASSAYS_INVALID: 01_sources\/assays\.csv line 2, field unit: unknown unit "ppm"/,
      ],
      [
        `${lines.slice(0, 3).join("\n")}\nNOT-IN-PORTFOLIO;CHEMBL2321810;6.1\n`,
        /ASSAY_CANDIDATE_UNKNOWN: 01_sources\/assays\.csv: 1 candidate id\(s\) not in the portfolio: line 4, field Candidate_ID: "NOT-IN-PORTFOLIO"/,
      ],
    ];
    for (const [index, [assays, message]] of cases.entries()) {
      const staged = await stageWithAssays(assays, t);
      const runId = `run_bad_assays_${index}`;
      const before = await runsRemaining(runId);
      stand.proxy.paths.length = 0;
      const refused = await run(staged, runId);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, message);
      assert.doesNotMatch(refused.stderr, /\n\s+at /, "no stack trace");
      assert.deepEqual(stand.proxy.paths, [], "the entitlement service was never called");
      assert.deepEqual(await runsRemaining(runId), before, "nothing charged");
      await assert.rejects(stat(join(staged.outputRoot, runId)), "no run folder left behind");
    }
  });
});
