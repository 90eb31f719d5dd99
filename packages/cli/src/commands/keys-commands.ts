import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { exportPrivateKeyPem, exportPublicKeyPem, generateSigningKey } from "@svc/core";
import { CliError } from "../cli-error.ts";
import { svcCommand } from "../config/svc-command.ts";

/** The file names the entitlement chart reads: its secret's key is `signing-key.pem` (docs/install.md §2). */
export const PRIVATE_KEY_FILE = "signing-key.pem";
export const PUBLIC_KEY_FILE = "signing-key.pub.pem";

/**
 * Writes a fresh Ed25519 key pair (RFC 8032; private key PKCS#8 per RFC 8410 §7, the format the
 * entitlement service reads from SVC_SIGNING_KEY_FILE). Never overwrites a key: replacing a signing
 * key unannounced would orphan every seal issued with it, so an existing file is refused before
 * anything is written.
 */
export async function runKeysGenerate(outDir: string): Promise<string> {
  const dir = resolve(outDir);
  const privatePath = join(dir, PRIVATE_KEY_FILE);
  const publicPath = join(dir, PUBLIC_KEY_FILE);
  for (const path of [privatePath, publicPath]) {
    if (await exists(path)) {
      throw new CliError(
        "FILE_UNWRITABLE",
        `${path}: already exists; a signing key is never overwritten (choose another --out, or move the old key away after rotating it into trustedKeys)`,
      );
    }
  }
  const key = generateSigningKey();
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // "wx": fail rather than replace a file created since the check above.
    await writeFile(privatePath, exportPrivateKeyPem(key), { mode: 0o600, flag: "wx" });
    await writeFile(publicPath, exportPublicKeyPem(key.publicKey), { mode: 0o644, flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Nothing half-written: a private key without its public half is removed (unless it was not ours).
    if (code !== "EEXIST") await rm(privatePath, { force: true });
    throw new CliError("FILE_UNWRITABLE", `${dir}: ${code ?? (error as Error).message}`);
  }
  return [
    `key id: ${key.keyId}`,
    `private key: ${privatePath} (keep it secret: whoever holds it can issue seals)`,
    `public key:  ${publicPath} (give it to auditors: ${svcCommand()} trust add ${publicPath})`,
    "Load it into the entitlement service's namespace:",
    `  kubectl create secret generic seal-signing-key --namespace entitlement --from-file=${PRIVATE_KEY_FILE}=${privatePath}`,
    "",
  ].join("\n");
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new CliError("FILE_UNWRITABLE", `${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
}
