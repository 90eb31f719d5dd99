import { createHash } from "node:crypto";

/** Size in bytes of every hash of the log (SHA-256, RFC 9162 §2.1). */
export const MERKLE_HASH_SIZE = 32;

/** Leaf hash, RFC 9162 §2.1.1: SHA-256(0x00 ‖ entry). The prefix keeps leaves apart from nodes. */
export function hashLeaf(entry: Uint8Array): Buffer {
  return createHash("sha256").update(Buffer.of(0x00)).update(entry).digest();
}

/** Interior node hash, RFC 9162 §2.1.1: SHA-256(0x01 ‖ left ‖ right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash("sha256").update(Buffer.of(0x01)).update(left).update(right).digest();
}

/** MTH({}) of RFC 9162 §2.1.1: the hash of the empty string. */
export function emptyTreeHash(): Buffer {
  return createHash("sha256").digest();
}
