import { sha256 } from "@noble/hashes/sha2.js";
import { Buffer } from "./browser-buffer.ts";

// Stands in for `node:crypto` in the verification page's bundle, so the page runs core's own
// verifySealSvg (issue 9 item 8: one verification code path, no second verifier). Hashing is
// synchronous there, so SHA-256 (FIPS 180-4) comes from @noble/hashes; Ed25519 (RFC 8032) is
// WebCrypto's, which only answers asynchronously: the page first runs the verifier to learn which
// signatures it asks about (`verify` records them and answers false), checks those with
// WebCrypto, and runs the verifier again with the answers (see verify-in-browser.ts).

// SPKI DER of an Ed25519 public key: this 12-byte prefix, then the 32-byte key (RFC 8410 §4)
const ED25519_SPKI_PREFIX = "302a300506032b6570032100";

/** A public key as core's keys.ts reads it: its type and its SPKI DER. */
export interface BrowserPublicKey {
  readonly asymmetricKeyType: "ed25519";
  readonly raw: Uint8Array;
  export(options: { format: "der"; type: "spki" }): Buffer;
}

/** One signature question the verifier asked: the key's raw bytes, the data and the signature. */
export interface SignatureQuestion {
  readonly raw: Uint8Array;
  readonly data: Uint8Array;
  readonly signature: Uint8Array;
}

const answers = new Map<string, boolean>();
const asked: SignatureQuestion[] = [];

const keyOf = (question: SignatureQuestion): string =>
  [question.raw, question.data, question.signature]
    .map((bytes) => Buffer.from(bytes).toString("hex"))
    .join(".");

/** The questions `verify` could not answer since the last call, in the order asked. */
export function takeSignatureQuestions(): SignatureQuestion[] {
  return asked.splice(0, asked.length);
}

/** Records WebCrypto's answer to a question, for the verifier's next run. */
export function answerSignatureQuestion(question: SignatureQuestion, ok: boolean): void {
  answers.set(keyOf(question), ok);
}

/**
 * `createHash("sha256")` as core calls it: SHA-256 (FIPS 180-4), the digest as hex (digest.ts) or
 * as bytes (the log's RFC 9162 leaf and node hashes, the signed note's key hash).
 */
export function createHash(algorithm: string) {
  if (algorithm !== "sha256") throw new Error(`hash ${algorithm} is not available in the page`);
  const chunks: Uint8Array[] = [];
  const hash = {
    update(data: string | Uint8Array) {
      chunks.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
      return hash;
    },
    digest(encoding?: "hex") {
      const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        joined.set(chunk, offset);
        offset += chunk.length;
      }
      const digest = Buffer.from(sha256(joined)) as Buffer;
      return encoding === undefined ? digest : digest.toString(encoding);
    },
  };
  return hash;
}

/** Reads an Ed25519 SPKI PEM (RFC 8410); anything else throws, as Node's reader would refuse it. */
export function createPublicKey(input: { key: string; format: "pem" }): BrowserPublicKey {
  const body = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/.exec(input.key);
  if (!body?.[1]) throw new Error("not an SPKI PEM");
  const der = Buffer.from(body[1].replace(/\s+/g, ""), "base64");
  if (der.length !== 44 || Buffer.from(der.subarray(0, 12)).toString("hex") !== ED25519_SPKI_PREFIX)
    throw new Error("not an Ed25519 SPKI key");
  const raw = der.slice(12);
  return { asymmetricKeyType: "ed25519", raw, export: () => Buffer.from(der) };
}

/** The recorded WebCrypto answer for this signature; an unanswered question is recorded and is false. */
export function verify(
  _algorithm: null,
  data: Uint8Array,
  publicKey: BrowserPublicKey,
  signature: Uint8Array,
): boolean {
  const question = { raw: publicKey.raw, data: Uint8Array.from(data), signature: Uint8Array.from(signature) };
  const answer = answers.get(keyOf(question));
  if (answer !== undefined) return answer;
  asked.push(question);
  return false;
}

/** Random bytes from the browser's CSPRNG. */
export function randomBytes(size: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(size)));
}

const signingIsServerSide = (): never => {
  throw new Error("signing is not available in the verification page");
};
export const createPrivateKey = signingIsServerSide;
export const generateKeyPairSync = signingIsServerSide;
export const sign = signingIsServerSide;
