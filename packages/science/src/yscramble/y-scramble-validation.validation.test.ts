import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { row } from "../../test/support/compound-row.ts";
import { inOneThread } from "../define-module.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { chemblSeries } from "../uncertainty/chembl-series.ts";
import { MIN_COMPOUNDS, yScrambleModule, yScrambleValidation } from "./y-scramble-validation.ts";

describe("y_scramble_validation module", () => {
  it("models each assay with enough compounds, lists out-of-fold predictions, and reports small assays as not assessed", async () => {
    const rdkit = await loadRDKit();
    // 120 compounds of CHEMBL2321810 carry the series' activity as assay A; the first 10 also carry
    // assay B (too few); one unparseable row has a value, one row has no activities at all.
    const series = chemblSeries().slice(0, 120);
    const rows = series.map((c, at) =>
      row(at + 1, c.smiles, at < 10 ? { A: c.activity, B: c.activity } : { A: c.activity }),
    );
    rows.push(row(121, "C1CC", { A: 6 }), row(122, "CCO"));
    const analyzer = inOneThread(yScrambleValidation);
    const findings = rows.map((r) => analyzer.analyze(prepareCompound(rdkit, r)));
    assert.deepEqual(findings[0]?.assays, ["A", "B"]);
    assert.deepEqual(findings[0]?.entered_model, ["A", "B"]);
    assert.equal(findings[0]?.evidence_id, "EID-y_scramble_validation-000001");
    assert.equal(findings[120]?.status, "not_assessed");
    assert.deepEqual(findings[120]?.entered_model, []);
    assert.deepEqual(findings[121]?.assays, []);
    const summary = analyzer.finish();
    assert.equal(summary.assessed, 121);
    assert.equal(summary.not_assessed, 1);
    const a = summary.assays.A;
    assert.ok(a?.status === "assessed");
    assert.equal(a.compounds, 120);
    assert.equal(a.scrambles.count, 100);
    assert.equal(a.scrambles.q2.length, 100);
    assert.equal(a.compounds_out_of_fold.length, 120);
    assert.equal(a.compounds_out_of_fold[0]?.candidate_id, "C1");
    assert.equal(a.compounds_out_of_fold[0]?.measured, series[0]?.activity);
    assert.ok(Number.isFinite(a.compounds_out_of_fold[0]?.out_of_fold));
    assert.equal(a.verdict, a.scrambles.max_q2 < a.q2 ? "pass" : "fail");
    assert.ok(a.p_value >= 1 / 101 && a.p_value <= 1);
    const b = summary.assays.B;
    assert.ok(b?.status === "not_assessed");
    assert.equal(b.compounds, 10);
    assert.match(b.reason, new RegExp(`at least ${MIN_COMPOUNDS}`));
    assert.match(summary.method.citations.join(" "), /Rücker/);
  });

  it("an assay whose activities are all equal is not assessed, with the reason", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(yScrambleValidation);
    chemblSeries()
      .slice(0, 25)
      .forEach((c, at) => {
        analyzer.analyze(prepareCompound(rdkit, row(at + 1, c.smiles, { flat: 5 })));
      });
    const flat = analyzer.finish().assays.flat;
    assert.ok(flat?.status === "not_assessed");
    assert.match(flat.reason, /same/);
  });
});

describe("y_scramble_validation assay cap", () => {
  it("past the cap, compounds do not enter the model and are counted as over_cap", async () => {
    const rdkit = await loadRDKit();
    const analyzer = inOneThread(yScrambleModule({ min: 5, max: 30 }));
    const findings = chemblSeries()
      .slice(0, 34)
      .map((c, at) => analyzer.analyze(prepareCompound(rdkit, row(at + 1, c.smiles, { A: c.activity }))));
    assert.deepEqual(findings[29]?.entered_model, ["A"]);
    assert.deepEqual(findings[30]?.entered_model, []);
    const summary = analyzer.finish();
    const a = summary.assays.A;
    assert.ok(a?.status === "assessed");
    assert.equal(a.compounds, 30);
    assert.equal(a.over_cap, 4);
    assert.equal(summary.settings.max_compounds, 30);
  });
});

describe("y_scramble_validation split (worker) path", () => {
  it("merge(assess(c)) after a structured clone equals analyze(c), findings and summary, with activities", async () => {
    const rdkit = await loadRDKit();
    const rows = chemblSeries()
      .slice(0, 30)
      .map((c, at) => row(at + 1, c.smiles, { A: c.activity }));
    rows.push(row(31, "C1CC", { A: 5 }));
    const whole = inOneThread(yScrambleValidation);
    const parts = yScrambleValidation.createRun();
    for (const r of rows) {
      const compound = prepareCompound(rdkit, r);
      const expected = whole.analyze(compound);
      const assessment = structuredClone(yScrambleValidation.assess(compound));
      assert.equal(JSON.stringify(parts.merge(assessment)), JSON.stringify(expected), r.candidateId);
    }
    assert.equal(JSON.stringify(parts.finish()), JSON.stringify(whole.finish()));
  });
});
