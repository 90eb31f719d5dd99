import { hashChildren } from "./merkle-hash.ts";

/**
 * RFC 9162 §2.1.4.2: true only when `proof` shows the tree of `first` leaves with root
 * `firstHash` is a prefix of the tree of `second` leaves with root `secondHash`. Equal sizes need
 * equal roots and an empty proof; the empty tree is a prefix of every tree.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstHash: Uint8Array,
  secondHash: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second))) return false;
  if (first < 0 || first > second) return false;
  if (first === 0) return proof.length === 0;
  if (first === second) return proof.length === 0 && Buffer.from(firstHash).equals(secondHash);
  if (proof.length === 0) return false;
  // step 2: a first tree that is a complete subtree is its own first proof node
  const path = isPowerOfTwo(first) ? [firstHash, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0] as Uint8Array);
  let sr: Buffer = Buffer.from(path[0] as Uint8Array);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn /= 2;
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstHash) && sr.equals(secondHash);
}

function isPowerOfTwo(n: number): boolean {
  let m = n;
  while (m > 1 && m % 2 === 0) m /= 2;
  return m === 1;
}
