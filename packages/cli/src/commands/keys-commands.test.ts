import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { exportPublicKeyPem, importPublicKeyPem, importSigningKeyPem, keyIdOf } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import { runCli } from "../program.ts";

async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, {});
  return { code, stdout, stderr };
}

describe("svc keys generate", () => {
  it("writes an Ed25519 PKCS#8 private key (0600) the entitlement service reads, its SPKI public key, and prints the key id", async (t) => {
    const dir = join(await makeTempDir("svc-keys-", t), "seal-key");
    const result = await svc(["keys", "generate", "--out", dir]);
    assert.equal(result.code, 0, result.stderr);
    const privatePem = await readFile(join(dir, "signing-key.pem"), "utf8");
    const publicPem = await readFile(join(dir, "signing-key.pub.pem"), "utf8");
    assert.match(privatePem, /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    assert.match(publicPem, /^-----BEGIN PUBLIC KEY-----\n/);
    assert.equal((await stat(join(dir, "signing-key.pem"))).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    // The entitlement service loads SVC_SIGNING_KEY_FILE with core's importSigningKeyPem.
    const key = importSigningKeyPem(privatePem);
    assert.equal(key.privateKey.asymmetricKeyType, "ed25519");
    assert.equal(exportPublicKeyPem(createPublicKey(key.privateKey)), publicPem);
    assert.equal(keyIdOf(importPublicKeyPem(publicPem)), key.keyId);
    assert.match(result.stdout, new RegExp(`^key id: ${key.keyId}$`, "m"));
    assert.match(
      result.stdout,
      /kubectl create secret generic seal-signing-key --namespace entitlement --from-file=signing-key\.pem=/,
    );
  });

  it("never overwrites an existing key and writes nothing then", async (t) => {
    const dir = await makeTempDir("svc-keys-", t);
    await writeFile(join(dir, "signing-key.pub.pem"), "old public key");
    const result = await svc(["keys", "generate", "--out", dir]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /signing-key\.pub\.pem: already exists; a signing key is never overwritten/);
    await assert.rejects(stat(join(dir, "signing-key.pem")), { code: "ENOENT" });
    assert.equal(await readFile(join(dir, "signing-key.pub.pem"), "utf8"), "old public key");
  });
});
