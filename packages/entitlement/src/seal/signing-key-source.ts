import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportPrivateKeyPem, generateSigningKey, importSigningKeyPem, type SigningKey } from "@svc/core";

const EMBEDDED_KEY_FILE = "signing-key.pem";

/** Reads the seal signing key from a PEM file (a mounted secret in production). */
export function readSigningKeyFile(path: string): SigningKey {
  return importSigningKeyPem(readFileSync(path, "utf8"));
}

/**
 * Embedded mode (issue, "Storage"): the key is generated on first start and persisted 0600 in the
 * data dir, so seals issued before a restart still verify after it. It is never stored in the ledger.
 */
export function loadOrCreateEmbeddedSigningKey(dataDir: string): SigningKey {
  const file = join(dataDir, EMBEDDED_KEY_FILE);
  try {
    return readSigningKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = generateSigningKey();
  try {
    writeFileSync(file, exportPrivateKeyPem(key), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readSigningKeyFile(file);
  }
  return key;
}
