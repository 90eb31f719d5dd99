/**
 * Skin permeability coefficient log Kp in cm/s (Potts & Guy, Pharm. Res. 1992, 9, 663):
 * log Kp (cm/h) = −2.72 + 0.71 log Kow − 0.0061 MW, converted to cm/s (− log10 3600). log Kow
 * is WLOGP here (SwissADME uses XLOGP3, not reproducible offline).
 */
export function logKpCmPerS(logKow: number, mw: number): number {
  return -2.72 + 0.71 * logKow - 0.0061 * mw - Math.log10(3600);
}
