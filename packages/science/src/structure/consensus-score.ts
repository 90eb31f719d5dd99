import { round } from "../numeric/round.ts";

/** A scoring function of Vina 1.2 the deep profile rescores the best pose with. */
export type Rescorer = "vinardo" | "ad4";

/** The deep profile's rescorers, in the order they run. */
export const DEEP_RESCORERS: readonly Rescorer[] = ["vinardo", "ad4"];

/** The consensus rule in words (method card and result). */
export const CONSENSUS_RULE =
  "mean of the best pose's scores by Vina, Vinardo and AD4 (each an estimate in kcal/mol) over the scorers " +
  "that gave one; spread = highest minus lowest of them";

export interface ConsensusScore {
  /** kcal/mol, 3 decimals. */
  readonly consensus: number;
  /** max − min over the scorers used, kcal/mol; 0 for one scorer. */
  readonly spread: number;
  readonly scorersUsed: readonly string[];
}

/**
 * Consensus scoring (Charifson et al., J. Med. Chem. 1999, 42, 5100: combining scoring functions
 * cancels part of each one's error) as the mean of the available scores of one pose, pure. Vina,
 * Vinardo and AD4 are each fitted to binding free energies in kcal/mol, so they are averaged as they
 * are rather than by rank (a per-compound number needs no portfolio to rank against).
 */
export function consensusScore(scores: Readonly<Record<string, number | null>>): ConsensusScore {
  const used = Object.entries(scores).filter((entry): entry is [string, number] => entry[1] !== null);
  const values = used.map(([, value]) => value);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    consensus: round(mean, 3),
    spread: round(Math.max(...values) - Math.min(...values), 3),
    scorersUsed: used.map(([name]) => name),
  };
}
