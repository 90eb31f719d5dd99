import {
  consistencyProofRanges,
  emptyTreeHash,
  foldSubtreeHashes,
  inclusionProofRanges,
  type LeafRange,
  LOG_PROOF_VERSION,
  type LogProof,
  type SigningKey,
  signCheckpoint,
  subtreesOfRange,
} from "@svc/core";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { LedgerStore, LogEvent } from "../store/ledger-store.ts";

/** What signs and names the log: the issuer's current seal key (so the log key rotates with it). */
export interface SealLogSigner {
  readonly origin: string;
  readonly key: SigningKey;
}

/** The hashes of `ranges`, read with one store call (RFC 9162 MTH of each). */
async function hashRanges(store: LedgerStore, ranges: readonly LeafRange[]): Promise<Buffer[]> {
  const pieces = ranges.map(subtreesOfRange);
  const hashes = await store.logSubtreeHashes(pieces.flat());
  let at = 0;
  return pieces.map((piece) => {
    const slice = hashes.slice(at, at + piece.length);
    at += piece.length;
    return foldSubtreeHashes(slice);
  });
}

/** Root hash of the tree of the first `size` leaves. */
export async function logRootAt(store: LedgerStore, size: number): Promise<Buffer> {
  if (size === 0) return emptyTreeHash();
  const [root] = await hashRanges(store, [{ start: 0, end: size }]);
  return root as Buffer;
}

/** A signed C2SP checkpoint of the tree of `size` leaves. */
export async function signedCheckpointAt(
  store: LedgerStore,
  signer: SealLogSigner,
  size: number,
): Promise<string> {
  return signCheckpoint({ origin: signer.origin, size, rootHash: await logRootAt(store, size) }, signer.key);
}

/** Refuses a size beyond the log's current one. */
async function sizeWithin(store: LedgerStore, requested: number | undefined): Promise<number> {
  const current = await store.logSize();
  if (requested === undefined) return current;
  if (requested > current)
    throw new EntitlementError(
      "LOG_RANGE_INVALID",
      `tree_size ${requested} is beyond the log's ${current} leaves`,
    );
  return requested;
}

/**
 * The proof record of one leaf (core LogProof): the leaf, its RFC 9162 §2.1.3 path in the tree
 * of `treeSize` leaves (default the current size) and that tree's signed checkpoint.
 */
export async function proveLeaf(
  store: LedgerStore,
  signer: SealLogSigner,
  leaf: { index: number } | { sealId: string; event: LogEvent },
  treeSize?: number,
): Promise<LogProof> {
  const index = "index" in leaf ? leaf.index : await store.logLeafIndex(leaf.sealId, leaf.event);
  if (index === null) throw new EntitlementError("LOG_LEAF_NOT_FOUND", "the seal log holds no such leaf");
  const size = await sizeWithin(store, treeSize);
  if (index >= size)
    throw new EntitlementError("LOG_RANGE_INVALID", `leaf ${index} is not in the tree of ${size} leaves`);
  const [record] = await store.logEntries(index, 1);
  if (record === undefined)
    throw new EntitlementError("LOG_LEAF_NOT_FOUND", "the seal log holds no such leaf");
  const path = await hashRanges(store, inclusionProofRanges(index, size));
  return {
    version: LOG_PROOF_VERSION,
    leaf_index: index,
    entry: record.entry,
    inclusion_proof: path.map((hash) => hash.toString("base64")),
    checkpoint: await signedCheckpointAt(store, signer, size),
  };
}

/** RFC 9162 §2.1.4 consistency proof between two sizes, with the newer tree's checkpoint. */
export async function proveConsistency(
  store: LedgerStore,
  signer: SealLogSigner,
  from: number,
  requestedTo?: number,
): Promise<{ from: number; to: number; consistency_proof: string[]; checkpoint: string }> {
  const to = await sizeWithin(store, requestedTo);
  if (from > to) throw new EntitlementError("LOG_RANGE_INVALID", `from ${from} is beyond to ${to}`);
  const proof = from === 0 || from === to ? [] : await hashRanges(store, consistencyProofRanges(from, to));
  return {
    from,
    to,
    consistency_proof: proof.map((hash) => hash.toString("base64")),
    checkpoint: await signedCheckpointAt(store, signer, to),
  };
}
