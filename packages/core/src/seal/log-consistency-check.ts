import type { TrustedKey } from "../keys.ts";
import { verifyConsistency } from "./consistency-proof.ts";
import { verifyInclusion } from "./inclusion-proof.ts";
import { type LogCheckpoint, openCheckpoint } from "./log-checkpoint.ts";
import type { LogProof, VerifiedLogProof } from "./log-proof-file.ts";
import { hashLeaf } from "./merkle-hash.ts";
import type { SealCheck } from "./seal-check.ts";

/**
 * True when `newer` extends `older` append-only (RFC 9162 §2.1.4): a smaller tree, a tree of the
 * same size with another root (a fork), or a failing proof is not.
 */
export function isConsistentExtension(
  older: Pick<LogCheckpoint, "size" | "rootHash">,
  newer: Pick<LogCheckpoint, "size" | "rootHash">,
  proof: readonly Uint8Array[],
): boolean {
  if (newer.size < older.size) return false;
  return verifyConsistency(older.size, newer.size, older.rootHash, newer.rootHash, proof);
}

/** What the issuer's log answered, as the CLI fetched it (issue 30 item 4). */
export type IssuerLogAnswer =
  | {
      /** `GET /api/log/proof/consistency?from=<stored size>`. */
      readonly consistency: {
        readonly to: number;
        readonly consistency_proof: readonly string[];
        readonly checkpoint: string;
      };
      /** `GET /api/log/proof/inclusion?seal_id=…&tree_size=<to>`; null when the log answered it has no such leaf. */
      readonly inclusion: LogProof | null;
    }
  | { readonly unreachable: string };

/**
 * Checks the issuer's current log against the proof kept in the run folder: its latest
 * checkpoint is signed by a trusted key and extends the stored one (else LOG_INCONSISTENT, a
 * rewritten or forked history), and it still holds this seal's very leaf at the same index (else
 * LOG_ENTRY_MISMATCH, a deleted or altered leaf).
 */
export function checkIssuerLog(
  stored: VerifiedLogProof,
  storedEntry: Uint8Array,
  answer: IssuerLogAnswer,
  trustedKeys: readonly TrustedKey[],
  issuer: string,
): SealCheck {
  const fail = (detail: string, code: "LOG_INCONSISTENT" | "LOG_ENTRY_MISMATCH" | "REVOCATION_UNKNOWN") => ({
    name: "log_consistency" as const,
    ok: false,
    detail,
    code,
  });
  if ("unreachable" in answer)
    return fail(`${issuer}'s log could not be asked: ${answer.unreachable}`, "REVOCATION_UNKNOWN");
  const opened = openCheckpoint(answer.consistency.checkpoint, trustedKeys);
  if ("refused" in opened)
    return fail(`${issuer}'s latest checkpoint is not signed by a key you trust`, "LOG_INCONSISTENT");
  const latest = opened.checkpoint;
  const proof = answer.consistency.consistency_proof.map((hash) => Buffer.from(hash, "base64"));
  if (latest.origin !== stored.origin || latest.size !== answer.consistency.to)
    return fail(`${issuer}'s checkpoint names another log or size than it proves`, "LOG_INCONSISTENT");
  if (!isConsistentExtension({ size: stored.size, rootHash: stored.rootHash }, latest, proof))
    return fail(
      `${issuer}'s log at size ${latest.size} is not an append-only extension of the checkpoint in the folder (size ${stored.size}): rewritten or forked history`,
      "LOG_INCONSISTENT",
    );
  const inclusion = answer.inclusion;
  if (inclusion === null)
    return fail(`${issuer}'s log no longer holds this seal's leaf (deleted)`, "LOG_ENTRY_MISMATCH");
  const entry = Buffer.from(inclusion.entry, "utf8");
  if (inclusion.leaf_index !== stored.leafIndex || !entry.equals(storedEntry))
    return fail(
      `${issuer}'s log holds another leaf for this seal than the folder's (leaf ${inclusion.leaf_index}): altered`,
      "LOG_ENTRY_MISMATCH",
    );
  const path = inclusion.inclusion_proof.map((hash) => Buffer.from(hash, "base64"));
  if (!verifyInclusion(inclusion.leaf_index, latest.size, hashLeaf(entry), path, latest.rootHash))
    return fail(
      `${issuer}'s log does not prove this seal's leaf in its latest checkpoint`,
      "LOG_ENTRY_MISMATCH",
    );
  return {
    name: "log_consistency",
    ok: true,
    detail: `${issuer}'s log at size ${latest.size} extends the folder's checkpoint (size ${stored.size}) and still holds leaf ${stored.leafIndex}`,
  };
}
