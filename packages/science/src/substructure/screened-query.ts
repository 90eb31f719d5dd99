import type { Mol, RDKit } from "../rdkit.ts";

/** A SMARTS query with its RDKit pattern fingerprint, compiled once per process. */
export interface ScreenedQuery {
  readonly smarts: string;
  readonly query: Mol;
  readonly fingerprint: Uint8Array;
}

/**
 * Compiles a SMARTS and its pattern fingerprint. RDKit's pattern fingerprint is built so that a
 * substructure's bits are a subset of the molecule's (the screen RDKit's SubstructLibrary uses),
 * which lets most of several hundred alert patterns be rejected without a graph match.
 */
export function compileScreenedQuery(rdkit: RDKit, smarts: string): ScreenedQuery {
  const query = rdkit.get_qmol(smarts);
  if (query === null) throw new Error(`SMARTS does not parse: ${smarts}`);
  return { smarts, query, fingerprint: query.get_pattern_fp_as_uint8array() as Uint8Array };
}

/** The molecule's pattern fingerprint, computed once and tested against every query. */
export function patternFingerprint(mol: Mol): Uint8Array {
  return mol.get_pattern_fp_as_uint8array() as Uint8Array;
}

/**
 * Atom-index sets from RDKit's `get_substruct_matches` JSON, which is an array of
 * `{ atoms, bonds }` when something matched and `{}` when nothing did.
 */
export function parseMatches(json: string): number[][] {
  const parsed = JSON.parse(json) as { atoms: number[] }[] | Record<string, never>;
  return Array.isArray(parsed) ? parsed.map((match) => match.atoms) : [];
}

/** Atom-index sets of every match of the query in the molecule (empty when none). */
export function findMatches(mol: Mol, molFingerprint: Uint8Array, query: ScreenedQuery): number[][] {
  const need = query.fingerprint;
  for (let i = 0; i < need.length; i++) {
    const bits = need[i] ?? 0;
    if (((molFingerprint[i] ?? 0) & bits) !== bits) return [];
  }
  if (mol.get_substruct_match(query.query) === "{}") return [];
  return parseMatches(mol.get_substruct_matches(query.query));
}
