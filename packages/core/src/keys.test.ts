import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { CoreError } from "./core-error.ts";
import {
  exportPrivateKeyPem,
  exportPublicKeyPem,
  generateSigningKey,
  importPublicKeyPem,
  importSigningKeyPem,
  isKeyValidAt,
  keyIdOf,
  signBytes,
  toTrustedKey,
  verifyBytes,
} from "./keys.ts";

describe("Ed25519 keys", () => {
  it("round-trips through PKCS#8 and SPKI PEM with the same key id", () => {
    const key = generateSigningKey();
    const reloaded = importSigningKeyPem(exportPrivateKeyPem(key));
    assert.equal(reloaded.keyId, key.keyId);
    assert.equal(keyIdOf(importPublicKeyPem(exportPublicKeyPem(key.publicKey))), key.keyId);
    assert.match(key.keyId, /^ed25519:[0-9a-f]{32}$/);
  });

  it("gives different keys different ids", () => {
    assert.notEqual(generateSigningKey().keyId, generateSigningKey().keyId);
  });

  it("verifies its own signature and refuses a changed message or signature", () => {
    const key = generateSigningKey();
    const message = Buffer.from("canonical bytes");
    const signature = signBytes(key, message);
    assert.equal(signature.length, 64);
    assert.ok(verifyBytes(key.publicKey, message, signature));
    assert.ok(!verifyBytes(key.publicKey, Buffer.from("canonical byteS"), signature));
    const flipped = Buffer.from(signature);
    flipped[0] = (flipped[0] as number) ^ 1;
    assert.ok(!verifyBytes(key.publicKey, message, flipped));
    assert.ok(!verifyBytes(generateSigningKey().publicKey, message, signature));
    assert.ok(!verifyBytes(key.publicKey, message, signature.subarray(0, 63)));
  });

  it("refuses non-Ed25519 keys and unreadable PEM with KEY_INVALID", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const isKeyInvalid = (error: unknown) => error instanceof CoreError && error.code === "KEY_INVALID";
    assert.throws(
      () => importPublicKeyPem(rsa.publicKey.export({ format: "pem", type: "spki" }).toString()),
      isKeyInvalid,
    );
    assert.throws(
      () => importSigningKeyPem("-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"),
      isKeyInvalid,
    );
  });

  it("honours the validity window of a trusted key, bounds inclusive", () => {
    const key = toTrustedKey(generateSigningKey().publicKey, {
      notBefore: "2026-01-01T00:00:00Z",
      notAfter: "2026-12-31T23:59:59Z",
    });
    assert.ok(isKeyValidAt(key, "2026-01-01T00:00:00Z"));
    assert.ok(isKeyValidAt(key, "2026-06-01T12:00:00Z"));
    assert.ok(!isKeyValidAt(key, "2025-12-31T23:59:59Z"));
    assert.ok(!isKeyValidAt(key, "2027-01-01T00:00:00Z"));
    assert.ok(!isKeyValidAt(key, "not a date"));
    assert.ok(isKeyValidAt(toTrustedKey(generateSigningKey().publicKey), "1999-01-01T00:00:00Z"));
  });
});
