import { bitCount, type Fingerprint, MORGAN_BITS, tanimoto } from "./morgan.ts";

export interface Neighbour {
  /** Index of the neighbour in the reference set. */
  readonly index: number;
  readonly tanimoto: number;
}

/**
 * The `k` members of a reference set most similar to a query (Tanimoto on Morgan bits), most
 * similar first, ties by index so the answer is deterministic.
 */
export function nearestNeighbours(query: Fingerprint, reference: FingerprintSet, k: number): Neighbour[] {
  const best: Neighbour[] = [];
  const q = bitCount(query);
  for (let index = 0; index < reference.size; index++) {
    // Exact prune: Tanimoto ≤ min(|A|,|B|) / max(|A|,|B|), so a member whose bound is not above
    // the k-th best so far would be skipped below anyway (no word-by-word comparison needed).
    if (best.length === k && countBound(q, reference.counts[index] ?? 0) <= (best[k - 1]?.tanimoto ?? 0))
      continue;
    const similarity = similarityAt(query, q, reference, index);
    if (best.length === k && similarity <= (best[k - 1]?.tanimoto ?? 0)) continue;
    let at = best.findIndex((n) => similarity > n.tanimoto);
    if (at === -1) at = best.length;
    best.splice(at, 0, { index, tanimoto: similarity });
    if (best.length > k) best.pop();
  }
  return best;
}

/**
 * A reference set packed in one array (64 words per member, so thousands of members cost one
 * object on the heap) with each member's bit count precomputed, for fast nearest-neighbour scans.
 */
export interface FingerprintSet {
  readonly size: number;
  readonly words: Uint32Array;
  readonly counts: Int32Array;
}

export function fingerprintSet(fingerprints: readonly Fingerprint[]): FingerprintSet {
  const words = new Uint32Array(fingerprints.length * WORDS);
  fingerprints.forEach((fp, m) => {
    words.set(fp, m * WORDS);
  });
  return { size: fingerprints.length, words, counts: Int32Array.from(fingerprints, bitCount) };
}

const WORDS = MORGAN_BITS / 32;

function similarityAt(query: Fingerprint, queryCount: number, set: FingerprintSet, m: number): number {
  let both = 0;
  const offset = m * WORDS;
  for (let i = 0; i < WORDS; i++) both += popcount((query[i] ?? 0) & (set.words[offset + i] ?? 0));
  const union = queryCount + (set.counts[m] ?? 0) - both;
  return union === 0 ? 0 : both / union;
}

/** The largest Tanimoto two fingerprints with these bit counts can have: min / max (0 when both are empty). */
function countBound(a: number, b: number): number {
  const high = a > b ? a : b;
  return high === 0 ? 0 : (a < b ? a : b) / high;
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
  for (let m = 0; m < reference.size; m++) {
    // Exact prune (see nearestNeighbours): this member cannot beat the best so far.
    if (countBound(q, reference.counts[m] ?? 0) <= best) continue;
    const s = similarityAt(query, q, reference, m);
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

/** The query's Tanimoto similarity to every member, in member order (a Tanimoto-kernel row). */
export function tanimotoRow(query: Fingerprint, reference: FingerprintSet): Float64Array {
  const q = bitCount(query);
  const row = new Float64Array(reference.size);
  for (let m = 0; m < reference.size; m++) row[m] = similarityAt(query, q, reference, m);
  return row;
}

/**
 * Σ weight[m]·Tanimoto(query, member m) and the highest similarity, in one pass with no
 * allocation: a Tanimoto-kernel model's prediction and its nearest-neighbour domain together.
 */
export function weightedTanimotoSum(
  query: Fingerprint,
  reference: FingerprintSet,
  weights: Float64Array,
): { sum: number; max: number } {
  const q = bitCount(query);
  const words = reference.words;
  const counts = reference.counts;
  let sum = 0;
  let max = 0;
  for (let m = 0, offset = 0; m < reference.size; m++, offset += WORDS) {
    let both = 0;
    for (let i = 0; i < WORDS; i++) both += popcount((query[i] as number) & (words[offset + i] as number));
    const union = q + (counts[m] as number) - both;
    const s = union === 0 ? 0 : both / union;
    sum += (weights[m] as number) * s;
    if (s > max) max = s;
  }
  return { sum, max };
}
