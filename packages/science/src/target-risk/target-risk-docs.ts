import type { SafetyNeighbourValidation } from "./drugcentral-index.ts";

/** The docs/science.md generated block this file renders (issue 24 item 7). */
export const TARGET_RISK_DOCS_BLOCK = "target-biology-risk-validation";

/** The test that checks (and with UPDATE_SCIENCE_DOCS=1 rewrites) it. */
export const TARGET_RISK_DOCS_SOURCE =
  "packages/science/src/target-risk/drugcentral-safety-index.validation.test.ts";

/**
 * The validation table of docs/science.md, from the checked-in index's figures: the chosen
 * threshold, the baselines and the test curve. The build script writes it; a test compares it.
 */
export function renderTargetRiskValidation(v: SafetyNeighbourValidation): string {
  const row = (label: string, s: { precision: number; recall: number; f1: number; predicted: number }) =>
    `| ${label} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${s.f1.toFixed(3)} | ${Math.round(s.predicted)} |`;
  const { most_frequent: constant, prevalence_random: random } = v.baselines;
  const lines = [
    `Scaffold-disjoint split of DrugCentral (${v.compounds.train} train, ${v.compounds.valid} valid, ${v.compounds.test} ` +
      `test drugs with at least one target; ${v.with_panel_target.test} test drugs act on a panel target, ` +
      `${v.test.actual} (drug, panel target) pairs). Threshold chosen on valid: **${v.threshold}** ` +
      `(valid F1 ${Math.max(...v.valid_f1).toFixed(3)}). Test, micro-averaged over (drug, panel target) pairs:`,
    "",
    "| predictor | precision | recall | F1 | pairs predicted |",
    "|---|---|---|---|---|",
    row(`nearest DrugCentral drugs, Tanimoto ≥ ${v.threshold}`, v.test),
    row(`constant: the ${constant.k} most frequent panel targets (${constant.targets.join(", ")})`, constant),
    row("random at each target's train prevalence (expected)", random),
    "",
    "Test at every threshold of the grid (for the trade-off; the choice was made on valid):",
    "",
    "| Tanimoto ≥ | test drugs with a neighbour | precision | recall | F1 |",
    "|---|---|---|---|---|",
    ...v.test_curve.map(
      (p) =>
        `| ${p.threshold.toFixed(2)} | ${p.covered} of ${v.compounds.test} | ${p.precision.toFixed(3)} | ${p.recall.toFixed(3)} | ${p.f1.toFixed(3)} |`,
    ),
    "",
    `Test per panel target at ${v.threshold} (targets with at least 5 test drugs acting on them):`,
    "",
    "| target | test drugs acting on it | predicted | found | precision | recall |",
    "|---|---|---|---|---|---|",
    ...v.per_target.map(
      (p) =>
        `| ${p.gene_symbol} | ${p.actual} | ${p.predicted} | ${p.true_positives} | ${p.precision.toFixed(3)} | ${p.recall.toFixed(3)} |`,
    ),
  ];
  return lines.join("\n");
}
