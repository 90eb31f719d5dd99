import { bitCount, type Fingerprint, tanimoto } from "./morgan.ts";

export interface Neighbour {
  /** Index of the neighbour in the reference set. */
  readonly index: number;
  readonly tanimoto: number;
}

/**
 * The `k` members of a reference set most similar to a query (Tanimoto on Morgan bits), most
 * similar first, ties by index so the answer is deterministic.
 */
export function nearestNeighbours(
  query: Fingerprint,
  reference: readonly Fingerprint[],
  k: number,
): Neighbour[] {
  const best: Neighbour[] = [];
  reference.forEach((fp, index) => {
    const similarity = tanimoto(query, fp);
    if (best.length === k && similarity <= (best[k - 1]?.tanimoto ?? 0)) return;
    let at = best.findIndex((n) => similarity > n.tanimoto);
    if (at === -1) at = best.length;
    best.splice(at, 0, { index, tanimoto: similarity });
    if (best.length > k) best.pop();
  });
  return best;
}

/** A reference set with each member's bit count precomputed, for fast nearest-neighbour scans. */
export interface FingerprintSet {
  readonly fingerprints: readonly Fingerprint[];
  readonly counts: Int32Array;
}

export function fingerprintSet(fingerprints: readonly Fingerprint[]): FingerprintSet {
  return { fingerprints, counts: Int32Array.from(fingerprints, bitCount) };
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * The highest Tanimoto similarity of the query to any member (0 for an empty set): |A∩B| / (|A| +
 * |B| − |A∩B|) with the members' counts precomputed, so each comparison is one AND per word.
 */
export function maxTanimoto(query: Fingerprint, reference: FingerprintSet): number {
  // Two modules ask for the same compound against the same set in a row (a model and
  // uncertainty_quantification): the last answer per set is kept, memory stays flat.
  const last = lastQuery.get(reference);
  if (last !== undefined && sameBits(last.query, query)) return last.value;
  const value = scanMaxTanimoto(query, reference);
  lastQuery.set(reference, { query, value });
  return value;
}

const lastQuery = new WeakMap<FingerprintSet, { query: Fingerprint; value: number }>();

function sameBits(a: Fingerprint, b: Fingerprint): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function scanMaxTanimoto(query: Fingerprint, reference: FingerprintSet): number {
  const q = bitCount(query);
  let best = 0;
  const { fingerprints, counts } = reference;
  for (let m = 0; m < fingerprints.length; m++) {
    const fp = fingerprints[m] as Fingerprint;
    let both = 0;
    for (let i = 0; i < fp.length; i++) both += popcount((query[i] ?? 0) & (fp[i] ?? 0));
    const union = q + (counts[m] ?? 0) - both;
    const s = union === 0 ? 0 : both / union;
    if (s > best) best = s;
  }
  return best;
}

/**
 * Each member's similarity to its nearest other member (leave-one-out): the distribution an
 * applicability-domain threshold is read from.
 */
export function leaveOneOutMaxTanimoto(reference: readonly Fingerprint[]): number[] {
  const best = new Array<number>(reference.length).fill(0);
  for (let i = 0; i < reference.length; i++) {
    const a = reference[i] as Fingerprint;
    for (let j = i + 1; j < reference.length; j++) {
      const s = tanimoto(a, reference[j] as Fingerprint);
      if (s > (best[i] ?? 0)) best[i] = s;
      if (s > (best[j] ?? 0)) best[j] = s;
    }
  }
  return best;
}
