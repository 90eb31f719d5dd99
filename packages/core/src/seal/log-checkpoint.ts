import { importPublicKeyPem, isKeyValidAt, type SigningKey, type TrustedKey } from "../keys.ts";
import { MERKLE_HASH_SIZE } from "./merkle-hash.ts";
import { type NoteVerifier, openNote, signNote } from "./signed-note.ts";

// C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the signed text is the origin line,
// the tree size in decimal, and the root hash in standard base64, each ending in a newline.

/** A log's state as a checkpoint states it. */
export interface LogCheckpoint {
  readonly origin: string;
  readonly size: number;
  readonly rootHash: Buffer;
}

/**
 * The log's origin (and key name) for an issuer: its name without a URL scheme or trailing slash,
 * then `/seal-log` (tlog-checkpoint: "a schema-less URL"; signed-note names hold no space nor plus).
 */
export function logOriginOf(issuer: string): string {
  const bare = issuer
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/\/+$/, "")
    .replace(/[\s+]/gu, "-");
  return `${bare.length > 0 ? bare : "svc"}/seal-log`;
}

/** The checkpoint's signed text (tlog-checkpoint, "Note text"). */
export function formatCheckpoint(checkpoint: LogCheckpoint): string {
  return `${checkpoint.origin}\n${checkpoint.size}\n${checkpoint.rootHash.toString("base64")}\n`;
}

/** Parses a checkpoint's text; extension lines after the root are allowed and ignored. Null when malformed. */
export function parseCheckpoint(text: string): LogCheckpoint | null {
  const lines = text.split("\n");
  if (lines.length < 4 || lines[lines.length - 1] !== "") return null;
  const [origin, size, root] = lines as [string, string, string];
  if (origin.length === 0 || !/^(0|[1-9][0-9]*)$/.test(size)) return null;
  const n = Number(size);
  const rootHash = Buffer.from(root, "base64");
  if (
    !Number.isSafeInteger(n) ||
    rootHash.length !== MERKLE_HASH_SIZE ||
    rootHash.toString("base64") !== root
  )
    return null;
  return { origin, size: n, rootHash };
}

/** The signed checkpoint note: signed by the log key, which is the issuer's current seal key. */
export function signCheckpoint(checkpoint: LogCheckpoint, key: SigningKey): string {
  return signNote(formatCheckpoint(checkpoint), checkpoint.origin, key);
}

/** Why a checkpoint note was refused. */
export type CheckpointRefusal = "malformed" | "untrusted";

/**
 * Opens a checkpoint note with the trusted seal keys (the log key rotates with them): the key
 * name must be the checkpoint's origin. Keys outside their window at `at` (when given) are not used.
 */
export function openCheckpoint(
  note: string,
  trustedKeys: readonly TrustedKey[],
  at?: string,
): { checkpoint: LogCheckpoint; keyId: string } | { refused: CheckpointRefusal } {
  const split = note.lastIndexOf("\n\n");
  const checkpoint = split < 0 ? null : parseCheckpoint(note.slice(0, split + 1));
  if (checkpoint === null) return { refused: "malformed" };
  const verifiers: (NoteVerifier & { keyId: string })[] = [];
  for (const key of trustedKeys) {
    if (at !== undefined && !isKeyValidAt(key, at)) continue;
    try {
      verifiers.push({
        name: checkpoint.origin,
        publicKey: importPublicKeyPem(key.public_key_pem),
        keyId: key.key_id,
      });
    } catch {
      // an unreadable trusted key vouches for nothing
    }
  }
  const opened = openNote(note, verifiers);
  if (opened === null) return { refused: "untrusted" };
  return { checkpoint, keyId: (opened.verifier as NoteVerifier & { keyId: string }).keyId };
}
