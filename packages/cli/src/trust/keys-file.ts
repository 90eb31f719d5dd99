import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { checkTrustedKeys, type TrustedKey } from "@svc/core";
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

/**
 * Validates `{ "keys": [...] }` from a file or an issuer with core's one trusted-key check (the
 * shape of contracts/trusted-key.ts, each key id the id of its PEM); `where` names it in messages.
 * Every problem is reported, separated by "; ".
 */
export function parseKeys(value: unknown, where: string): StoredKey[] {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) {
    throw new CliError(
      "KEYS_FILE_INVALID",
      `${where}: expected { "keys": [{ "key_id", "public_key_pem" }] }`,
    );
  }
  const checked = checkTrustedKeys(keys, `${where}: keys`);
  if (!checked.ok) throw new CliError("KEYS_FILE_INVALID", checked.problems.join("; "));
  // `source` (where `svc trust add` got the key) is the keys file's own note beside the contract.
  return checked.keys.map((key, index) => {
    const source = (keys[index] as { source?: unknown }).source;
    return typeof source === "string" ? { ...key, source } : key;
  });
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
