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
  const both = intersections(query, reference);
  for (let index = 0; index < reference.size; index++) {
    const similarity = similarityOf(q, reference.counts[index] as number, both[index] as number);
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

/** |A∩B| / (|A| + |B| − |A∩B|), 0 when both are empty: the one Tanimoto of every scan here. */
function similarityOf(queryCount: number, memberCount: number, both: number): number {
  const union = queryCount + memberCount - both;
  return union === 0 ? 0 : both / union;
}

/**
 * A reference set's members by bit (an inverted index, as chemical search engines keep one per
 * fingerprint bit): the members holding bit b are `members[start[b] .. start[b + 1])`, ascending.
 * A Morgan fingerprint of 2,048 bits sets 25–50 of them, so a query's intersection with every
 * member is the sum of its ~40 bits' lists, 4–10 entries per member on the NCI set against 64
 * word ANDs each (issue 42 item 2: the scans were a fifth of a compound's CPU). Built on first
 * use, once per thread; a set never scanned costs nothing.
 */
interface BitIndex {
  readonly start: Int32Array;
  readonly members: Uint16Array | Uint32Array;
}

const bitIndexes = new WeakMap<FingerprintSet, BitIndex>();

function bitIndexOf(set: FingerprintSet): BitIndex {
  const known = bitIndexes.get(set);
  if (known !== undefined) return known;
  const { words, size } = set;
  // Counting sort by bit: how many members hold each bit, then each member into its bits' lists
  // (loops written out: this runs over every word of every set once per worker at warm-up).
  const start = new Int32Array(MORGAN_BITS + 1);
  for (let w = 0; w < size * WORDS; w++) {
    let word = words[w] as number;
    const base = (w & (WORDS - 1)) << 5;
    while (word !== 0) {
      const low = word & -word;
      const bit = base + 31 - Math.clz32(low);
      start[bit + 1] = (start[bit + 1] as number) + 1;
      word ^= low;
    }
  }
  for (let b = 0; b < MORGAN_BITS; b++) start[b + 1] = (start[b + 1] as number) + (start[b] as number);
  const total = start[MORGAN_BITS] as number;
  const members = size <= 0x10000 ? new Uint16Array(total) : new Uint32Array(total);
  const next = start.slice(0, MORGAN_BITS);
  for (let w = 0; w < size * WORDS; w++) {
    let word = words[w] as number;
    const base = (w & (WORDS - 1)) << 5;
    const m = (w / WORDS) | 0;
    while (word !== 0) {
      const low = word & -word;
      const bit = base + 31 - Math.clz32(low);
      members[next[bit] as number] = m;
      next[bit] = (next[bit] as number) + 1;
      word ^= low;
    }
  }
  const index = { start, members };
  bitIndexes.set(set, index);
  return index;
}

// One scratch row of intersection counts per thread, grown to the largest set (at most 2,048 fits 16 bits).
let scratch = new Uint16Array(0);

/**
 * |query ∩ member| for every member, in member order (exact integers, so every similarity below is
 * the same double as a word-by-word count gives). The row is scratch, valid until the next call.
 */
function intersections(query: Fingerprint, set: FingerprintSet): Uint16Array {
  const { start, members } = bitIndexOf(set);
  if (scratch.length < set.size) scratch = new Uint16Array(set.size);
  const both = scratch;
  both.fill(0, 0, set.size);
  for (let i = 0; i < WORDS; i++) {
    let word = query[i] as number;
    while (word !== 0) {
      const low = word & -word;
      const bit = i * 32 + 31 - Math.clz32(low);
      const end = start[bit + 1] as number;
      for (let at = start[bit] as number; at < end; at++) {
        const m = members[at] as number;
        both[m] = (both[m] as number) + 1;
      }
      word ^= low;
    }
  }
  return both;
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
  const both = intersections(query, reference);
  const counts = reference.counts;
  let best = 0;
  for (let m = 0; m < reference.size; m++) {
    const s = similarityOf(q, counts[m] as number, both[m] as number);
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
  const both = intersections(query, reference);
  const row = new Float64Array(reference.size);
  for (let m = 0; m < reference.size; m++)
    row[m] = similarityOf(q, reference.counts[m] as number, both[m] as number);
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
  const both = intersections(query, reference);
  const counts = reference.counts;
  let sum = 0;
  let max = 0;
  for (let m = 0; m < reference.size; m++) {
    const s = similarityOf(q, counts[m] as number, both[m] as number);
    sum += (weights[m] as number) * s;
    if (s > max) max = s;
  }
  return { sum, max };
}
