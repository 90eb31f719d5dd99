import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { CoreError, importPublicKeyPem, keyIdOf, type TrustedKey } from "@svc/core";
import { CliError } from "../cli-error.ts";

/** A trusted key as a keys file stores it: the shape of GET /api/seal/keys, plus where it came from. */
export interface StoredKey extends TrustedKey {
  readonly source?: string;
}

/**
 * Reads a keys file (`{ "keys": [...] }`, the body of GET /api/seal/keys). Every key must be an
 * Ed25519 SPKI PEM whose key id is the one written beside it.
 */
export async function readKeysFile(path: string): Promise<StoredKey[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError("FILE_NOT_FOUND", `${path}: no such file`);
    throw new CliError("FILE_UNREADABLE", `${path}: ${code ?? "cannot be read"}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError("KEYS_FILE_INVALID", `${path}: not JSON; expected the body of GET /api/seal/keys`);
  }
  return parseKeys(parsed, path);
}

/** Validates `{ "keys": [...] }` from a file or an issuer; `where` names it in messages. */
export function parseKeys(value: unknown, where: string): StoredKey[] {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) {
    throw new CliError(
      "KEYS_FILE_INVALID",
      `${where}: expected { "keys": [{ "key_id", "public_key_pem" }] }`,
    );
  }
  return keys.map((key, index) => parseKey(key, `${where}: keys[${index}]`));
}

function parseKey(value: unknown, where: string): StoredKey {
  const key = value as Record<string, unknown> | null;
  if (typeof key?.key_id !== "string" || typeof key.public_key_pem !== "string") {
    throw new CliError("KEYS_FILE_INVALID", `${where}: needs key_id and public_key_pem strings`);
  }
  try {
    if (keyIdOf(importPublicKeyPem(key.public_key_pem)) !== key.key_id)
      throw new CliError(
        "KEYS_FILE_INVALID",
        `${where}: key_id ${key.key_id} is not the id of its public key`,
      );
  } catch (error) {
    if (error instanceof CoreError) throw new CliError("KEYS_FILE_INVALID", `${where}: ${error.message}`);
    throw error;
  }
  const window = (name: string) => {
    const found = key[name];
    if (found === undefined || found === null) return null;
    if (typeof found !== "string" || Number.isNaN(Date.parse(found)))
      throw new CliError("KEYS_FILE_INVALID", `${where}: ${name} is not a date`);
    return found;
  };
  return {
    key_id: key.key_id,
    public_key_pem: key.public_key_pem,
    not_before: window("not_before"),
    not_after: window("not_after"),
    ...(typeof key.source === "string" ? { source: key.source } : {}),
  };
}

/**
 * Adds keys to the user's trust file (created with its directory when missing), replacing a key
 * with the same id. Written to a temporary file and renamed: never half-written.
 */
export async function addToKeysFile(path: string, added: readonly StoredKey[]): Promise<StoredKey[]> {
  let existing: StoredKey[] = [];
  try {
    existing = await readKeysFile(path);
  } catch (error) {
    if (!(error instanceof CliError && error.code === "FILE_NOT_FOUND")) throw error;
  }
  const ids = new Set(added.map((key) => key.key_id));
  const keys = [...existing.filter((key) => !ids.has(key.key_id)), ...added];
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    throw new CliError(
      "FILE_UNWRITABLE",
      `${path}: ${(error as NodeJS.ErrnoException).code ?? "cannot be written"}`,
    );
  }
  return keys;
}
