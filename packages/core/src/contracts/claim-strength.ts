/**
 * How strongly a run's findings are claimed (issue 37 item 3), one vocabulary for the runner that
 * decides it, the seal that signs it and every verifier that reads it back: SUPPORTED when every
 * required module ran and did its work; HYPOTHESIS when a required module is missing or assessed
 * too few compounds, or too much of the portfolio could not be read (the runner's module plan
 * states the reasons in results/summary.json `claim_reasons`).
 */
export const CLAIM_STRENGTHS = ["SUPPORTED", "HYPOTHESIS"] as const;

export type ClaimStrength = (typeof CLAIM_STRENGTHS)[number];

/** True for a value of the vocabulary. */
export function isClaimStrength(value: unknown): value is ClaimStrength {
  return (CLAIM_STRENGTHS as readonly unknown[]).includes(value);
}
