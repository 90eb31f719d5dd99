import { z } from "zod";
import type { TrustedKey } from "../keys.ts";
import { RUN_FILES, SEAL_FILES } from "../run-folder/run-files.ts";
import { isCanonicalBase64 } from "./canonical-base64.ts";
import { verifyInclusion } from "./inclusion-proof.ts";
import { type CheckpointRefusal, logOriginOf, openCheckpoint } from "./log-checkpoint.ts";
import { issuedEntryOf, type LogEntry, logEntryBytes, parseLogEntry } from "./log-entry.ts";
import { hashLeaf, MERKLE_HASH_SIZE } from "./merkle-hash.ts";
import type { SealCheck } from "./seal-check.ts";
import type { SealPayload } from "./seal-payload.ts";
import { parseNote } from "./signed-note.ts";

/** The file of `seal/` that holds the seal's log proof (issue 30 item 3). */
export const LOG_PROOF_FILE = SEAL_FILES.logProof;

export const LOG_PROOF_VERSION = "svc.log-proof/v1";

const base64Hash = z
  .string()
  .regex(/^[A-Za-z0-9+/]{43}=$/)
  // unused pad bits zero: one spelling per hash (issue 38 item 7)
  .refine(isCanonicalBase64, "not canonical base64")
  .describe("a 32-byte SHA-256 hash, standard base64");

/**
 * The seal's place in the issuer's log, as run_complete returns it (`log`) and the runner writes
 * it to `seal/log-proof.json`: the leaf (canonical JSON), its index, the RFC 9162 §2.1.3
 * inclusion path, and the C2SP checkpoint note it proves against.
 */
export const logProofSchema = z
  .object({
    version: z.literal(LOG_PROOF_VERSION),
    leaf_index: z.number().int().nonnegative(),
    entry: z.string().describe("the leaf's bytes: canonical JSON of the log entry"),
    inclusion_proof: z.array(base64Hash).max(64).describe("RFC 9162 §2.1.3.1 path, deepest sibling first"),
    checkpoint: z.string().max(10_000).describe("C2SP tlog-checkpoint signed note"),
  })
  .strict();

export type LogProof = z.infer<typeof logProofSchema>;

/** Builds the proof record for a leaf. */
export function logProofOf(
  leafIndex: number,
  entry: LogEntry,
  proof: readonly Uint8Array[],
  checkpoint: string,
): LogProof {
  return {
    version: LOG_PROOF_VERSION,
    leaf_index: leafIndex,
    entry: logEntryBytes(entry).toString("utf8"),
    inclusion_proof: proof.map((hash) => Buffer.from(hash).toString("base64")),
    checkpoint,
  };
}

/** The file's bytes as the runner writes them: two-space JSON and a newline (the verifier requires exactly these). */
export function formatLogProofFile(proof: LogProof): string {
  return `${JSON.stringify(proof, null, 2)}\n`;
}

/** A verified log proof: where the seal sits and the checkpoint that signs it. */
export interface VerifiedLogProof {
  readonly leafIndex: number;
  readonly size: number;
  readonly rootHash: Buffer;
  readonly origin: string;
  readonly checkpoint: string;
  /** The leaf's bytes. */
  readonly entry: Buffer;
}

/**
 * Checks `seal/log-proof.json` offline (issue 30 item 4): the leaf is exactly this seal's
 * `issued` entry (else LOG_ENTRY_MISMATCH), the checkpoint is signed by a trusted seal key under
 * its origin, and the inclusion path leads from the leaf to the checkpoint's root (else
 * LOG_PROOF_INVALID). A file that cannot be read is LOG_PROOF_INVALID: nothing unchecked passes.
 */
export function checkLogProofFile(
  payload: SealPayload,
  sealJson: Uint8Array,
  file: Uint8Array,
  trustedKeys: readonly TrustedKey[],
): { check: SealCheck; verified: VerifiedLogProof | null } {
  const fail = (
    detail: string,
    code: "LOG_PROOF_INVALID" | "LOG_ENTRY_MISMATCH" | "KEY_UNTRUSTED" = "LOG_PROOF_INVALID",
  ) => ({
    check: { name: "log_inclusion" as const, ok: false, detail, code },
    verified: null,
  });
  let proof: LogProof;
  try {
    const parsed = logProofSchema.safeParse(JSON.parse(Buffer.from(file).toString("utf8")));
    if (!parsed.success) return fail(`${RUN_FILES.sealLogProof} is not a ${LOG_PROOF_VERSION} record`);
    proof = parsed.data;
    // byte for byte, like every file of seal/: no duplicate key nor extra text a reader could see
    if (!Buffer.from(formatLogProofFile(proof), "utf8").equals(file))
      return fail(`${RUN_FILES.sealLogProof} is not written as the runner writes it`);
  } catch {
    return fail(`${RUN_FILES.sealLogProof} is not JSON`);
  }
  const entryBytes = Buffer.from(proof.entry, "utf8");
  const entry = parseLogEntry(entryBytes);
  const expected = logEntryBytes(issuedEntryOf(sealJson, payload));
  if (entry === null || !entryBytes.equals(expected))
    return fail(
      `the log leaf in ${RUN_FILES.sealLogProof} is not this seal's issued entry`,
      "LOG_ENTRY_MISMATCH",
    );
  // the issuer signs its checkpoint once: a second signature line is a second byte version of the
  // file, and a line a verifier skips as "unknown key" vouches for nothing (issue 38 item 7)
  const lines = parseNote(proof.checkpoint)?.signatures.length;
  if (lines !== undefined && lines !== 1)
    return fail(`the checkpoint carries ${lines} signature lines; the issuer signs it with one`);
  // issue 38 item 2: only the keys pinned for the seal's issuer (or for any issuer), valid when the
  // seal was issued (its checkpoint was signed then), open it, under that issuer's own log origin
  const issuerKeys = trustedKeys.filter((key) => key.issuer == null || key.issuer === payload.issuer);
  const opened = openCheckpoint(proof.checkpoint, issuerKeys, payload.issued_at);
  if ("refused" in opened) {
    // With the seal's own key not trusted either, nothing here can be decided: that is the
    // seal's KEY_UNTRUSTED (UNVERIFIED), not a proof shown to be invalid. A checkpoint refused
    // while the seal's key is trusted is a foreign or forged checkpoint: LOG_PROOF_INVALID.
    const sealKeyTrusted = trustedKeys.some((key) => key.key_id === payload.key_id);
    return fail(
      checkpointRefusal(opened.refused),
      opened.refused === "untrusted" && !sealKeyTrusted ? "KEY_UNTRUSTED" : "LOG_PROOF_INVALID",
    );
  }
  const { checkpoint } = opened;
  const origin = logOriginOf(payload.issuer);
  if (checkpoint.origin !== origin)
    return fail(
      `the checkpoint is of the log ${checkpoint.origin}, not of the seal's issuer's log ${origin}`,
    );
  const path = proof.inclusion_proof.map((hash) => Buffer.from(hash, "base64"));
  if (path.some((hash) => hash.length !== MERKLE_HASH_SIZE))
    return fail("an inclusion proof hash is not 32 bytes");
  if (!verifyInclusion(proof.leaf_index, checkpoint.size, hashLeaf(entryBytes), path, checkpoint.rootHash))
    return fail(
      `the inclusion proof does not lead from leaf ${proof.leaf_index} to the root of ${checkpoint.origin} at size ${checkpoint.size}`,
    );
  return {
    check: {
      name: "log_inclusion",
      ok: true,
      detail: `leaf ${proof.leaf_index} of ${checkpoint.origin}, in its checkpoint of size ${checkpoint.size} signed by ${opened.keyId}`,
    },
    verified: {
      leafIndex: proof.leaf_index,
      size: checkpoint.size,
      rootHash: checkpoint.rootHash,
      origin: checkpoint.origin,
      checkpoint: proof.checkpoint,
      entry: entryBytes,
    },
  };
}

function checkpointRefusal(refusal: CheckpointRefusal): string {
  return refusal === "malformed"
    ? "the checkpoint is not a C2SP tlog-checkpoint note"
    : "the checkpoint is not signed under its origin by a key you pinned for the seal's issuer, valid when the seal was issued";
}

/**
 * A folder without `seal/log-proof.json` (issue 38 item 2): refused when the key that signed the
 * seal is pinned with a `log_from` at or before the seal's `issued_at` (its issuer keeps a log,
 * so every seal it issued since carries its proof: deleting the file must not turn a logged seal
 * into one checked without its log). Null when the key says nothing of a log, or the seal is older.
 */
export function checkLogProofPresence(
  payload: SealPayload,
  trustedKeys: readonly TrustedKey[],
): SealCheck | null {
  const key = trustedKeys.find((candidate) => candidate.key_id === payload.key_id);
  if (key?.log_from == null || Date.parse(payload.issued_at) < Date.parse(key.log_from)) return null;
  return {
    name: "log_inclusion",
    ok: false,
    detail: `${RUN_FILES.sealLogProof} is missing: the key ${payload.key_id} you pinned says its issuer logs every seal since ${key.log_from}, and this one was issued at ${payload.issued_at}`,
    code: "LOG_PROOF_MISSING",
  };
}
