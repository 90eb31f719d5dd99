import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import type { z } from "zod";
import type { trustedKeySchema } from "./contracts/trusted-key.ts";
import { CoreError } from "./core-error.ts";
import { sha256Hex } from "./digest.ts";

/** An Ed25519 signing key with the id verifiers use to find its public half. */
export interface SigningKey {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** A public key a verifier trusts, with its signing window (contracts/trusted-key.ts). */
export type TrustedKey = Readonly<z.infer<typeof trustedKeySchema>>;

/** Creates a fresh Ed25519 key pair (RFC 8032). */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

/**
 * Stable key id: `ed25519:` + the first 16 bytes (hex) of SHA-256 over the raw 32-byte public
 * key (RFC 8032 §5.1.5 encoding), so anyone holding the PEM can recompute it.
 */
export function keyIdOf(publicKey: KeyObject): string {
  assertEd25519(publicKey);
  const spki = publicKey.export({ format: "der", type: "spki" });
  // The raw key is the last 32 bytes of the SPKI DER (RFC 8410 §4).
  return `ed25519:${sha256Hex(spki.subarray(spki.length - 32)).slice(0, 32)}`;
}

/** PEM (PKCS#8) of the private key, for a file or a Kubernetes secret. */
export function exportPrivateKeyPem(key: SigningKey): string {
  return key.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
}

/** PEM (SPKI) of a public key. */
export function exportPublicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ format: "pem", type: "spki" }).toString();
}

/** Loads a signing key from PKCS#8 PEM; throws `KEY_INVALID` for anything but Ed25519. */
export function importSigningKeyPem(pem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw new CoreError("KEY_INVALID", "signing key is not a readable PKCS#8 PEM");
  }
  const publicKey = createPublicKey(privateKey);
  assertEd25519(publicKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

/** Loads a public key from SPKI PEM; throws `KEY_INVALID` for anything but Ed25519. */
export function importPublicKeyPem(pem: string): KeyObject {
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw new CoreError("KEY_INVALID", "public key is not a readable SPKI PEM");
  }
  assertEd25519(publicKey);
  return publicKey;
}

/** The trusted-key record for a public key, optionally bounded in time. */
export function toTrustedKey(
  publicKey: KeyObject,
  window: { notBefore?: string; notAfter?: string } = {},
): TrustedKey {
  return {
    key_id: keyIdOf(publicKey),
    public_key_pem: exportPublicKeyPem(publicKey),
    not_before: window.notBefore ?? null,
    not_after: window.notAfter ?? null,
  };
}

/** Ed25519 signature (64 bytes) over `data`. */
export function signBytes(key: SigningKey, data: Uint8Array): Buffer {
  return sign(null, data, key.privateKey);
}

/** True only when `signature` is a valid Ed25519 signature of `data` by `publicKey`. */
export function verifyBytes(publicKey: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, data, publicKey, signature);
  } catch {
    return false;
  }
}

/** True when `instant` lies inside the key's validity window (bounds inclusive). */
export function isKeyValidAt(key: TrustedKey, instant: string): boolean {
  const at = Date.parse(instant);
  if (Number.isNaN(at)) return false;
  if (key.not_before && at < Date.parse(key.not_before)) return false;
  if (key.not_after && at > Date.parse(key.not_after)) return false;
  return true;
}

function assertEd25519(key: KeyObject): void {
  if (key.asymmetricKeyType !== "ed25519") {
    throw new CoreError(
      "KEY_INVALID",
      `expected an Ed25519 key, got ${key.asymmetricKeyType ?? "a symmetric key"}`,
    );
  }
}
