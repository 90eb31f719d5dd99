/**
 * The figures measured on ChEMBL series CHEMBL2321810 (data/chembl2321810.*, 1,017 compounds) with
 * the module's settings, written into the method card; `chembl-validation.test.ts` recomputes
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
