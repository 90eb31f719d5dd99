/**
 * The figures measured on ChEMBL series CHEMBL2321810 (data/chembl2321810.*, 1,017 compounds) with
 * the module's settings, written into the method card; `chembl-validation.validation.test.ts` recomputes
 * every one and fails if they differ. The negative control replaces the activities by one seeded
 * permutation of them (NEGATIVE_CONTROL_SEED), which must fail.
 */
export const NEGATIVE_CONTROL_SEED = 19;

export const CHEMBL2321810_Y_SCRAMBLE = {
  compounds: 1017,
  q2: 0.7276,
  rmse: 0.5706,
  scrambles: 100,
  max_scramble_q2: -0.3136,
  mean_scramble_q2: -0.4467,
  verdict: "pass",
  p_value: 1 / 101,
  negative_control_q2: -0.5522,
  negative_control_p_value: 99 / 101,
  negative_control_verdict: "fail",
} as const;

const f3 = (value: number) => value.toFixed(3).replace("-", "−");

/**
 * docs/science.md's y-scramble validation sentence (issue 24 item 7), from the figures above, which
 * `chembl-validation.validation.test.ts` recomputes: the scrambles are the constant-signal baseline.
 */
export function yScrambleFiguresMarkdown(): string {
  const v = CHEMBL2321810_Y_SCRAMBLE;
  return (
    `On ChEMBL series CHEMBL2321810 (${v.compounds.toLocaleString("en-US")} compounds): q² **${f3(v.q2)}**, RMSE **${f3(v.rmse)}** ` +
    `log units; the ${v.scrambles} scrambles reach q² at most **${f3(v.max_scramble_q2)}** (mean ${f3(v.mean_scramble_q2)}): ` +
    `**${v.verdict}**, p = ${v.p_value.toFixed(4)}. A negative control — the same activities shuffled once, then put ` +
    `through the whole protocol — gives q² ${f3(v.negative_control_q2)}, **${v.negative_control_verdict}** ` +
    `(p = ${v.negative_control_p_value.toFixed(2)}). The constant predictor (every compound at the mean) has q² 0 by definition.`
  );
}
