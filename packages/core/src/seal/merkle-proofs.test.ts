import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { verifyConsistency } from "./consistency-proof.ts";
import { verifyInclusion } from "./inclusion-proof.ts";
import { emptyTreeHash, hashChildren, hashLeaf } from "./merkle-hash.ts";
import {
  consistencyProofRanges,
  foldSubtreeHashes,
  inclusionProofRanges,
  type LeafRange,
  largestPowerOfTwoBelow,
  type SubtreeCoordinate,
  siblingsNeededToAppend,
  subtreesCompletedBy,
  subtreesOfRange,
} from "./merkle-subtrees.ts";

// The reference is RFC 9162 §2.1.1's MTH written as the recursion itself, over real leaves.
const leaves = Array.from({ length: 70 }, (_, i) => hashLeaf(Buffer.from(`leaf ${i}`)));
const mth = (start: number, end: number): Buffer => {
  if (end - start === 1) return leaves[start] as Buffer;
  const k = largestPowerOfTwoBelow(end - start);
  return hashChildren(mth(start, start + k), mth(start + k, end));
};

// What a store keeps: the hash of each complete subtree, filled by appending leaf after leaf.
const stored = new Map<string, Buffer>();
const key = (c: SubtreeCoordinate) => `${c.level}/${c.index}`;
leaves.forEach((leaf, index) => {
  for (const needed of siblingsNeededToAppend(index)) assert.ok(stored.has(key(needed)));
  for (const { coordinate, hash } of subtreesCompletedBy(index, leaf, (c) => stored.get(key(c)) as Buffer))
    stored.set(key(coordinate), hash);
});
const hashOf = (range: LeafRange) =>
  foldSubtreeHashes(subtreesOfRange(range).map((c) => stored.get(key(c)) as Buffer));

describe("RFC 9162 Merkle tree", () => {
  it("hashes leaves with 0x00 and nodes with 0x01 (RFC 9162 §2.1.1)", () => {
    assert.equal(
      hashLeaf(Buffer.alloc(0)).toString("hex"),
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    );
    assert.equal(
      emptyTreeHash().toString("hex"),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  it("computes every root from stored complete subtrees exactly as the RFC recursion does", () => {
    for (let size = 1; size <= leaves.length; size += 1)
      assert.ok(hashOf({ start: 0, end: size }).equals(mth(0, size)), `size ${size}`);
  });

  it("proves and verifies the inclusion of every leaf in every tree size", () => {
    for (let size = 1; size <= 40; size += 1) {
      const root = mth(0, size);
      for (let leaf = 0; leaf < size; leaf += 1) {
        const proof = inclusionProofRanges(leaf, size).map(hashOf);
        assert.ok(verifyInclusion(leaf, size, leaves[leaf] as Buffer, proof, root), `${leaf} in ${size}`);
      }
    }
  });

  it("refuses an inclusion proof for another leaf, another index, a changed node or a short path", () => {
    const size = 37;
    const root = mth(0, size);
    const proof = inclusionProofRanges(12, size).map(hashOf);
    assert.equal(verifyInclusion(12, size, leaves[13] as Buffer, proof, root), false);
    assert.equal(verifyInclusion(13, size, leaves[12] as Buffer, proof, root), false);
    assert.equal(verifyInclusion(12, 13, leaves[12] as Buffer, proof, root), false);
    assert.equal(verifyInclusion(12, size, leaves[12] as Buffer, proof.slice(1), root), false);
    const altered = proof.map((p, i) => (i === 2 ? hashLeaf(p) : p));
    assert.equal(verifyInclusion(12, size, leaves[12] as Buffer, altered, root), false);
    assert.equal(verifyInclusion(size, size, leaves[12] as Buffer, proof, root), false);
  });

  it("proves and verifies consistency between every pair of sizes", () => {
    for (let to = 1; to <= 40; to += 1)
      for (let from = 1; from <= to; from += 1) {
        const proof = consistencyProofRanges(from, to).map(hashOf);
        assert.ok(verifyConsistency(from, to, mth(0, from), mth(0, to), proof), `${from} → ${to}`);
      }
  });

  it("refuses consistency between a tree and a rewritten one of a larger size", () => {
    const forged = [...leaves];
    forged[3] = hashLeaf(Buffer.from("rewritten"));
    const forgedRoot = (() => {
      const rec = (s: number, e: number): Buffer =>
        e - s === 1
          ? (forged[s] as Buffer)
          : hashChildren(
              rec(s, s + largestPowerOfTwoBelow(e - s)),
              rec(s + largestPowerOfTwoBelow(e - s), e),
            );
      return rec(0, 20);
    })();
    const proof = consistencyProofRanges(7, 20).map(hashOf);
    assert.equal(verifyConsistency(7, 20, mth(0, 7), forgedRoot, proof), false);
    assert.equal(verifyConsistency(7, 20, mth(0, 7), mth(0, 20), []), false);
    assert.equal(verifyConsistency(8, 8, mth(0, 8), forgedRoot, []), false);
    assert.equal(verifyConsistency(20, 7, mth(0, 20), mth(0, 7), proof), false);
  });
});
