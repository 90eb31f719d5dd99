import { createHash, type KeyObject } from "node:crypto";
import { type SigningKey, signBytes, verifyBytes } from "../keys.ts";

// C2SP signed-note (https://c2sp.org/signed-note): text ending in a newline, a blank line, then
// one line per signature "— <key name> <base64(key id ‖ signature)>". Go's golang.org/x/mod/sumdb/note
// reads and writes the same bytes, which test/interop checks.

/** U+2014 EM DASH and a space: the start of every signature line. */
const SIGNATURE_PREFIX = "\u2014 ";
/** Signature type of Ed25519 in the key id and the verifier key (signed-note, "Ed25519"). */
const ED25519_TYPE = 0x01;
/** Go's note.Open refuses more; so do we. */
const MAX_SIGNATURES = 100;

/** A signature line of a note: the key's name, its 4-byte id and the raw signature. */
export interface NoteSignature {
  readonly name: string;
  readonly keyHash: number;
  readonly signature: Buffer;
}

/** The raw 32-byte Ed25519 public key (RFC 8032 §5.1.5), the last 32 bytes of its SPKI DER (RFC 8410 §4). */
export function rawEd25519PublicKey(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ format: "der", type: "spki" });
  return Buffer.from(spki.subarray(spki.length - 32));
}

/** Key id of signed-note: the first 4 bytes, big-endian, of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key). */
export function noteKeyHash(name: string, publicKey: KeyObject): number {
  const digest = createHash("sha256")
    .update(name, "utf8")
    .update(Buffer.of(0x0a, ED25519_TYPE))
    .update(rawEd25519PublicKey(publicKey))
    .digest();
  return digest.readUInt32BE(0);
}

/**
 * The verifier key text Go's note.NewVerifier reads: `<name>+<hex key id>+<base64(0x01 ‖ key)>`.
 */
export function noteVerifierKey(name: string, publicKey: KeyObject): string {
  const id = noteKeyHash(name, publicKey).toString(16).padStart(8, "0");
  const key = Buffer.concat([Buffer.of(ED25519_TYPE), rawEd25519PublicKey(publicKey)]).toString("base64");
  return `${name}+${id}+${key}`;
}

/** True for a key name signed-note allows: non-empty, no Unicode space, no plus sign. */
export function isNoteKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** Signs `text` (which must end in a newline and hold no blank line) as a one-signature note. */
export function signNote(text: string, name: string, key: SigningKey): string {
  if (!isNoteKeyName(name)) throw new RangeError(`"${name}" is not a signed-note key name`);
  if (!text.endsWith("\n") || text.includes("\n\n") || hasControlCharacter(text))
    throw new RangeError("a note's text ends in a newline and holds no blank line nor control character");
  const signature = signBytes(key, Buffer.from(text, "utf8"));
  const blob = Buffer.alloc(4 + signature.length);
  blob.writeUInt32BE(noteKeyHash(name, key.publicKey), 0);
  signature.copy(blob, 4);
  return `${text}\n${SIGNATURE_PREFIX}${name} ${blob.toString("base64")}\n`;
}

/** A note split into its signed text and its signature lines; null when it is not a well-formed note. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } | null {
  if (note.length > 1_000_000) return null;
  // the signatures follow the last blank line (signed-note, "Format")
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) return null;
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  if (lines.length === 0 || lines.length > MAX_SIGNATURES) return null;
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return null;
    const [name, encoded, ...rest] = line.slice(SIGNATURE_PREFIX.length).split(" ");
    if (name === undefined || encoded === undefined || rest.length > 0 || !isNoteKeyName(name)) return null;
    const blob = Buffer.from(encoded, "base64");
    if (blob.toString("base64") !== encoded || blob.length < 5) return null;
    signatures.push({ name, keyHash: blob.readUInt32BE(0), signature: blob.subarray(4) });
  }
  return { text, signatures };
}

/** A public key a note may be signed with, under the key name it signs as. */
export interface NoteVerifier {
  readonly name: string;
  readonly publicKey: KeyObject;
}

/**
 * Opens a note with the first verifier whose name and key id a signature line carries (unknown
 * keys are ignored, as signed-note requires); a known key whose signature fails refuses the note.
 * Returns the signed text and the verifier, or null.
 */
export function openNote(
  note: string,
  verifiers: readonly NoteVerifier[],
): { text: string; verifier: NoteVerifier } | null {
  const parsed = parseNote(note);
  if (parsed === null) return null;
  for (const line of parsed.signatures) {
    const verifier = verifiers.find(
      (candidate) =>
        candidate.name === line.name && noteKeyHash(candidate.name, candidate.publicKey) === line.keyHash,
    );
    if (verifier === undefined) continue;
    return verifyBytes(verifier.publicKey, Buffer.from(parsed.text, "utf8"), line.signature)
      ? { text: parsed.text, verifier }
      : null;
  }
  return null;
}

/** True when `text` holds an ASCII control character other than the newline (signed-note, "Format"). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}
