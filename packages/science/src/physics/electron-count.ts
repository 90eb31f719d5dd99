import type { Geometry } from "./quantum-engine.ts";

/** Atomic numbers of the elements a protein's ff14SB model and a drug-like ligand hold (the GFN2 audits' elements). */
const ATOMIC_NUMBER: Readonly<Record<string, number>> = {
  H: 1,
  B: 5,
  C: 6,
  N: 7,
  O: 8,
  F: 9,
  Si: 14,
  P: 15,
  S: 16,
  Cl: 17,
  Na: 11,
  Mg: 12,
  K: 19,
  Ca: 20,
  Se: 34,
  Br: 35,
  I: 53,
};

/**
 * Why a geometry's electron count cannot be a closed shell (odd: its charge does not match its
 * atoms, e.g. a pose whose formal charges were lost), or null. GFN2 runs here are closed-shell
 * singlets; an odd count would silently become an open-shell calculation of another molecule.
 */
export function electronCountProblem(geometry: Geometry): string | null {
  let electrons = -geometry.charge;
  for (const symbol of geometry.symbols) {
    const z = ATOMIC_NUMBER[symbol];
    if (z === undefined) return `element ${symbol} is outside the GFN2 audits' elements`;
    electrons += z;
  }
  return electrons % 2 === 0 ? null : `an odd electron count (${electrons}) at charge ${geometry.charge}`;
}
