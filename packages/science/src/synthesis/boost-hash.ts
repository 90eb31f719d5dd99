/**
 * The 32-bit hash combination RDKit's Morgan fingerprint uses for its ids: Boost's `hash_combine`
 * (Boost.Functional/Hash, after Dimov, WG21 N1756 §6.18) with every value and the seed held in
 * 32 unsigned bits, which RDKit's copy of it (`gboost`) does so ids agree across platforms.
 * `seed ^ (value + 0x9e3779b9 + (seed << 6) + (seed >> 2))`, all modulo 2^32; the hash of an
 * integer is the integer itself, read as unsigned.
 */
export function hashCombine(seed: number, value: number): number {
  const sum = ((value >>> 0) + 0x9e3779b9 + ((seed << 6) >>> 0) + (seed >>> 2)) >>> 0;
  return (seed ^ sum) >>> 0;
}

/** Boost's hash of a sequence: a zero seed combined with each value in order. */
export function hashSequence(values: readonly number[]): number {
  let seed = 0;
  for (const value of values) seed = hashCombine(seed, value);
  return seed;
}

/** Boost's hash of a pair: a zero seed combined with the first, then the second member. */
export function hashPair(first: number, second: number): number {
  return hashCombine(hashCombine(0, first), second);
}
