import { hashChildren } from "./merkle-hash.ts";

/**
 * A complete, aligned subtree of the log: leaves [index·2^level, (index+1)·2^level). The stores
 * keep the hash of every such subtree once it is complete, so any hash the RFC 9162 proofs need
 * is a fold of at most log2(n) stored hashes (the storage layout Go's sumdb/tlog also uses).
 */
export interface SubtreeCoordinate {
  readonly level: number;
  readonly index: number;
}

/** A half-open range of leaf indexes [start, end) whose Merkle Tree Hash a proof carries. */
export interface LeafRange {
  readonly start: number;
  readonly end: number;
}

/** The largest power of two strictly less than n (RFC 9162 §2.1.1's k), for n > 1. */
export function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees whose hashes, folded from the right, give MTH(D[start:end]) for a range
 * the RFC 9162 recursion produces (start aligned to a power of two at least the range's size):
 * the recursion splits off the largest power of two each time, so the pieces are the set bits of
 * the size, largest first.
 */
export function subtreesOfRange(range: LeafRange): SubtreeCoordinate[] {
  const pieces: SubtreeCoordinate[] = [];
  let start = range.start;
  while (start < range.end) {
    let level = 0;
    while (start % 2 ** (level + 1) === 0 && start + 2 ** (level + 1) <= range.end) level += 1;
    pieces.push({ level, index: start / 2 ** level });
    start += 2 ** level;
  }
  return pieces;
}

/** MTH of a range from the hashes of its subtrees (subtreesOfRange order): right to left. */
export function foldSubtreeHashes(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) throw new RangeError("a range of no leaves has no subtree hashes");
  let hash: Buffer = Buffer.from(hashes[hashes.length - 1] as Uint8Array);
  for (let i = hashes.length - 2; i >= 0; i -= 1) hash = hashChildren(hashes[i] as Uint8Array, hash);
  return hash;
}

/**
 * The subtrees that become complete when leaf `index` is appended: the leaf itself, then each
 * parent whose right child it completes. `leftSibling(level, index)` reads a stored hash.
 */
export function subtreesCompletedBy(
  index: number,
  leafHash: Uint8Array,
  leftSibling: (coordinate: SubtreeCoordinate) => Uint8Array,
): { coordinate: SubtreeCoordinate; hash: Buffer }[] {
  const completed: { coordinate: SubtreeCoordinate; hash: Buffer }[] = [
    { coordinate: { level: 0, index }, hash: Buffer.from(leafHash) },
  ];
  let level = 0;
  let at = index;
  let hash: Buffer = Buffer.from(leafHash);
  while (at % 2 === 1) {
    hash = hashChildren(leftSibling({ level, index: at - 1 }), hash);
    level += 1;
    at = (at - 1) / 2;
    completed.push({ coordinate: { level, index: at }, hash });
  }
  return completed;
}

/** The left siblings subtreesCompletedBy will read for leaf `index` (to fetch them in one query). */
export function siblingsNeededToAppend(index: number): SubtreeCoordinate[] {
  const needed: SubtreeCoordinate[] = [];
  let level = 0;
  let at = index;
  while (at % 2 === 1) {
    needed.push({ level, index: at - 1 });
    level += 1;
    at = (at - 1) / 2;
  }
  return needed;
}

/**
 * The ranges of an inclusion proof of leaf `leaf` in the tree of the first `size` leaves, in
 * proof order (RFC 9162 §2.1.3.1 PATH: the deepest sibling first).
 */
export function inclusionProofRanges(leaf: number, size: number): LeafRange[] {
  if (!(Number.isSafeInteger(leaf) && Number.isSafeInteger(size) && leaf >= 0 && leaf < size))
    throw new RangeError(`leaf ${leaf} is not in a tree of ${size} leaves`);
  const ranges: LeafRange[] = [];
  const path = (start: number, end: number): void => {
    const n = end - start;
    if (n === 1) return;
    const k = largestPowerOfTwoBelow(n);
    if (leaf < start + k) {
      path(start, start + k);
      ranges.push({ start: start + k, end });
    } else {
      path(start + k, end);
      ranges.push({ start, end: start + k });
    }
  };
  path(0, size);
  return ranges;
}

/**
 * The ranges of a consistency proof between the trees of `from` and `to` leaves (RFC 9162
 * §2.1.4.1 PROOF/SUBPROOF), for 0 < from ≤ to; from = to has the empty proof.
 */
export function consistencyProofRanges(from: number, to: number): LeafRange[] {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from > 0 && from <= to))
    throw new RangeError(`no consistency proof from ${from} to ${to} leaves`);
  const ranges: LeafRange[] = [];
  const subproof = (m: number, start: number, end: number, whole: boolean): void => {
    const n = end - start;
    if (m === n) {
      if (!whole) ranges.push({ start, end });
      return;
    }
    const k = largestPowerOfTwoBelow(n);
    if (m <= k) {
      subproof(m, start, start + k, whole);
      ranges.push({ start: start + k, end });
    } else {
      subproof(m - k, start + k, end, false);
      ranges.push({ start, end: start + k });
    }
  };
  subproof(from, 0, to, true);
  return ranges;
}
