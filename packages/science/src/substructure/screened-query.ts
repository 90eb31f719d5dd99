import type { Mol, RDKit } from "../rdkit.ts";
import { type ElementScreen, elementCounts, elementScreenOf, passesElementScreen } from "./element-screen.ts";

/** A SMARTS query with its RDKit pattern fingerprint, compiled once per process. */
export interface ScreenedQuery {
  readonly smarts: string;
  readonly query: Mol;
  readonly fingerprint: Uint8Array;
  /** The elements any match needs (element-screen.ts); checked before the graph match. */
  readonly elements?: ElementScreen;
}

/**
 * Compiles a SMARTS and its two screens. RDKit's pattern fingerprint is built so that a
 * substructure's bits are a subset of the molecule's (the screen RDKit's SubstructLibrary uses),
 * which lets most of several hundred alert patterns be rejected without a graph match; the
 * element screen rejects the generic patterns the fingerprint cannot (few bits, e.g. NIBR's
 * `[N;R0]=[N;R0]C#N` on a molecule without three nitrogens).
 */
export function compileScreenedQuery(rdkit: RDKit, smarts: string): ScreenedQuery {
  const query = rdkit.get_qmol(smarts);
  if (query === null) throw new Error(`SMARTS does not parse: ${smarts}`);
  return {
    smarts,
    query,
    fingerprint: query.get_pattern_fp_as_uint8array() as Uint8Array,
    elements: elementScreenOf(query.get_json()),
  };
}

// Several catalogs (PAINS, NIBR, QED's alerts, metabolism) screen the same shared parent Mol:
// its fingerprint is computed once per Mol handle (issue 10 item 4).
const fingerprints = new WeakMap<Mol, Uint8Array>();

/** The molecule's pattern fingerprint, computed once per Mol and tested against every query. */
export function patternFingerprint(mol: Mol): Uint8Array {
  let fingerprint = fingerprints.get(mol);
  if (fingerprint === undefined) {
    fingerprint = mol.get_pattern_fp_as_uint8array() as Uint8Array;
    fingerprints.set(mol, fingerprint);
  }
  return fingerprint;
}

/**
 * Atom-index sets from RDKit's `get_substruct_matches` JSON, which is an array of
 * `{ atoms, bonds }` when something matched and `{}` when nothing did.
 */
export function parseMatches(json: string): number[][] {
  const parsed = JSON.parse(json) as { atoms: number[] }[] | Record<string, never>;
  return Array.isArray(parsed) ? parsed.map((match) => match.atoms) : [];
}

/** False when a screen proves the query cannot match; true means only "maybe". */
export function mayMatch(mol: Mol, molFingerprint: Uint8Array, query: ScreenedQuery): boolean {
  const need = query.fingerprint;
  for (let i = 0; i < need.length; i++) {
    const bits = need[i] ?? 0;
    if (((molFingerprint[i] ?? 0) & bits) !== bits) return false;
  }
  return query.elements === undefined || passesElementScreen(elementCounts(mol), query.elements);
}

// Several catalogs ask the same SMARTS of the same shared parent Mol: QED's 116 alerts are matched
// by admet_predictions' QED and again by toxicity_profile's alert list, 27 of them are also Brenk
// alerts and 19 NIBR filters (issue 42 item 2). A SMARTS compiles to the same query wherever it is
// compiled, and the shared parent is never modified, so its answer is kept per Mol handle (the
// entry goes with the handle, as the fingerprints above).
const answers = new WeakMap<Mol, Map<string, boolean>>();

/** True when the query matches the molecule at least once (one graph match at most per Mol and SMARTS). */
export function hasMatch(mol: Mol, molFingerprint: Uint8Array, query: ScreenedQuery): boolean {
  if (!mayMatch(mol, molFingerprint, query)) return false;
  let known = answers.get(mol);
  if (known === undefined) {
    known = new Map();
    answers.set(mol, known);
  }
  let answer = known.get(query.smarts);
  if (answer === undefined) {
    answer = mol.get_substruct_match(query.query) !== "{}";
    known.set(query.smarts, answer);
  }
  return answer;
}

/** Atom-index sets of every match of the query in the molecule (empty when none). */
export function findMatches(mol: Mol, molFingerprint: Uint8Array, query: ScreenedQuery): number[][] {
  if (!hasMatch(mol, molFingerprint, query)) return [];
  return parseMatches(mol.get_substruct_matches(query.query));
}
