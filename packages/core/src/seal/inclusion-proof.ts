import { hashChildren } from "./merkle-hash.ts";

/**
 * RFC 9162 §2.1.3.2: true only when `proof` shows the leaf hash at `leafIndex` is in the tree of
 * `treeSize` leaves whose root is `rootHash`.
 */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  rootHash: Uint8Array,
): boolean {
  if (!(Number.isSafeInteger(leafIndex) && Number.isSafeInteger(treeSize))) return false;
  if (leafIndex < 0 || leafIndex >= treeSize) return false;
  // Plain numbers, not bigints: sizes stay below 2^53, and division keeps them exact.
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r: Buffer = Buffer.from(leafHash);
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn /= 2;
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(rootHash);
}
