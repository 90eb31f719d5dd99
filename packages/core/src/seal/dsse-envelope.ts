import { z } from "zod";
import { importPublicKeyPem, type SigningKey, signBytes, type TrustedKey, verifyBytes } from "../keys.ts";
import { isCanonicalBase64 } from "./canonical-base64.ts";

/**
 * A DSSE envelope (github.com/secure-systems-lab/dsse, envelope.md): the payload's bytes in
 * standard base64, its type, and signatures over PAE(type, payload), never over the JSON.
 */
export const dsseEnvelopeSchema = z
  .object({
    payload: z.string().describe("standard base64 of the payload's bytes"),
    payloadType: z.string().min(1).describe("media type of the payload, e.g. application/vnd.in-toto+json"),
    signatures: z
      .array(
        z
          .object({
            keyid: z.string().describe("hint naming the key; here the issuer's key id (ed25519:…)"),
            sig: z
              .string()
              .describe("standard base64 of the Ed25519 signature over PAE(payloadType, payload)"),
          })
          .strict(),
      )
      .min(1)
      .max(8),
  })
  .strict();

export type DsseEnvelope = z.infer<typeof dsseEnvelopeSchema>;

/**
 * DSSE v1 pre-authentication encoding (protocol.md): `"DSSEv1" SP LEN(type) SP type SP
 * LEN(body) SP body`, LEN in ASCII decimal bytes. Signing this rather than the payload binds
 * the type, so a payload cannot be replayed under another type.
 */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, "utf8"),
    type,
    Buffer.from(` ${payload.length} `, "utf8"),
    payload,
  ]);
}

/** Signs `payload` as a one-signature DSSE envelope with `key` (keyid: the key's id). */
export function signDsseEnvelope(payloadType: string, payload: Uint8Array, key: SigningKey): DsseEnvelope {
  return {
    payload: Buffer.from(payload).toString("base64"),
    payloadType,
    signatures: [
      { keyid: key.keyId, sig: signBytes(key, preAuthEncoding(payloadType, payload)).toString("base64") },
    ],
  };
}

/** Why an envelope did not open: unreadable, or no signature by the key asked for. */
export type DsseRefusal = "malformed" | "untrusted" | "bad_signature";

/**
 * Verifies an envelope signed by the key `keyId` among `trustedKeys` and returns its payload's
 * bytes. A signature naming another key is not enough (a verifier decides whose word it takes),
 * and any signature that names the key but does not verify refuses the envelope.
 */
export function openDsseEnvelope(
  envelope: DsseEnvelope,
  keyId: string,
  trustedKeys: readonly TrustedKey[],
): { payload: Buffer } | { refused: DsseRefusal } {
  if (!isCanonicalBase64(envelope.payload)) return { refused: "malformed" };
  const payload = Buffer.from(envelope.payload, "base64");
  const trusted = trustedKeys.find((key) => key.key_id === keyId);
  if (trusted === undefined) return { refused: "untrusted" };
  const signed = envelope.signatures.filter((signature) => signature.keyid === keyId);
  if (signed.length === 0) return { refused: "untrusted" };
  const publicKey = importPublicKeyPem(trusted.public_key_pem);
  const message = preAuthEncoding(envelope.payloadType, payload);
  // every signature naming the key must verify: a bad one placed before a good one is a forgery's
  // line, not noise to skip (issue 38 item 7)
  for (const signature of signed) {
    // a non-canonical spelling of a valid signature is a second byte version of the file
    if (!isCanonicalBase64(signature.sig)) return { refused: "malformed" };
    if (!verifyBytes(publicKey, message, Buffer.from(signature.sig, "base64")))
      return { refused: "bad_signature" };
  }
  return { payload };
}
