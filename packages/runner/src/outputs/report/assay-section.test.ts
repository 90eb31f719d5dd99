import assert from "node:assert/strict";
import { test } from "node:test";
import { renderAssaySection } from "./assay-section.ts";

const scramble = {
  assessed: 1,
  not_assessed: 1,
  assays: {
    "<img src=x onerror=alert(1)>": {
      status: "assessed",
      compounds: 40,
      over_cap: 0,
      q2: 0.61234,
      q2_per_repeat: [0.6],
      rmse: 0.5,
      q2_above_0_5: true,
      scrambles: { count: 100, max_q2: -0.2, mean_q2: -0.4, p95_q2: -0.25, q2: [] },
      verdict: "pass",
      p_value: 0.0099,
      compounds_out_of_fold: [],
    },
    tiny: { status: "not_assessed", compounds: 5, reason: "5 compounds; at least 20 are needed" },
  },
};

test("no assay module ran: the section is absent, so a ligand-only report is unchanged", () => {
  assert.equal(renderAssaySection(new Map([["admet_predictions", {}]])), "");
});

test("y-scrambling shows each assay's q², best scramble and verdict, and escapes the assay id", () => {
  const html = renderAssaySection(new Map([["y_scramble_validation", scramble]]));
  assert.match(html, /<h3>y-scrambling/);
  assert.match(html, /0\.612<\/td><td>-0\.2 \(100 scrambles\)<\/td><td>0\.0099</);
  assert.match(html, /pass: the real model beats every scramble/);
  assert.match(html, /not assessed: 5 compounds; at least 20 are needed/);
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
});
