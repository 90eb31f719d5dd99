import { CoreError, importPublicKeyPem, type TrustedKey, toTrustedKey } from "@svc/core";
import { CliError } from "../cli-error.ts";
import type { TrustFiles } from "../config/cli-config.ts";
import { readFileOrThrow } from "../read-file-or-throw.ts";
import { fetchIssuerKeys, parseIssuerUrl } from "./issuer-client.ts";
import { readKeysFile } from "./keys-file.ts";

/** Where trust may come from: never from the folder being verified (issue 9 §4). */
export interface TrustOptions {
  /** PEM files of public keys to trust (repeatable). */
  readonly key?: readonly string[];
  /** A keys file as served by GET /api/seal/keys. */
  readonly keys?: string;
  /** The issuer's base URL: its published keys, and its online revocation answer. */
  readonly issuer?: string;
}

export interface Trust {
  readonly keys: TrustedKey[];
  /** One phrase per source, for the output (`--key a.pem`, `trust file …`). */
  readonly sources: string[];
  readonly issuer: URL | null;
}

/**
 * The keys to trust: those named on the command line (`--key`, `--keys`, `--issuer`), else the
 * user's trust file. None is a valid answer (the seal is then UNVERIFIED), never the folder's key.
 */
export async function resolveTrust(options: TrustOptions, config: TrustFiles): Promise<Trust> {
  const keys: TrustedKey[] = [];
  const sources: string[] = [];
  for (const path of options.key ?? []) {
    keys.push(publicKeyFromPem((await readFileOrThrow(path)).toString("utf8"), path));
    sources.push(`--key ${path}`);
  }
  if (options.keys) {
    keys.push(...(await readKeysFile(options.keys)));
    sources.push(`--keys ${options.keys}`);
  }
  const issuer = options.issuer ? parseIssuerUrl(options.issuer) : null;
  if (issuer) {
    const published = await fetchIssuerKeys(issuer);
    keys.push(...published);
    sources.push(`issuer ${issuer.origin} (keys ${published.map((key) => key.key_id).join(", ") || "none"})`);
  }
  if (sources.length > 0) return { keys, sources, issuer };
  try {
    const stored = await readKeysFile(config.trustFile);
    return {
      keys: stored,
      sources: [`trust file ${config.trustFile} (${stored.length} keys)`],
      issuer: null,
    };
  } catch (error) {
    if (error instanceof CliError && error.code === "FILE_NOT_FOUND" && !config.trustFileExplicit)
      return { keys: [], sources: [], issuer: null };
    throw error;
  }
}

/** A public key PEM as a trusted key without a validity window. */
export function publicKeyFromPem(pem: string, path: string): TrustedKey {
  try {
    return toTrustedKey(importPublicKeyPem(pem));
  } catch (error) {
    if (error instanceof CoreError) throw new CliError("KEY_INVALID", `${path}: ${error.message}`);
    throw error;
  }
}
