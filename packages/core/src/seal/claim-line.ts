import type { ClaimStrength } from "../contracts/claim-strength.ts";

/**
 * The seal's claim line (issue 37 item 3): drawn under the attestation line (y 384) when the
 * payload carries a claim strength, at the same 17-unit step. At y 401 the inner circle (r 188)
 * leaves 184 units between its edges at the descenders' depth (y 404); the longer label measures
 * 167 units in DejaVu Sans at 11 px (Pillow's getbbox), clear of the ring and far below the QR
 * square (y 170-330). A seal without the field is drawn exactly as before. verify.sh draws the same
 * line from this table.
 */
export const CLAIM_LINE_Y = 401;

export const CLAIM_LINE_LABELS: Readonly<Record<ClaimStrength, string>> = {
  SUPPORTED: "claim SUPPORTED",
  HYPOTHESIS: "claim HYPOTHESIS: see report",
};
