import { CliError } from "../cli-error.ts";
import type { TrustFiles } from "../config/cli-config.ts";
import { svcCommand } from "../config/svc-command.ts";
import { readFileOrThrow } from "../read-file-or-throw.ts";
import { fetchIssuerKeysToPin, parseIssuerUrl } from "../trust/issuer-client.ts";
import { addToKeysFile, readKeysFile, type StoredKey } from "../trust/keys-file.ts";
import { publicKeyFromPem } from "../trust/resolve-trust.ts";

/**
 * `svc trust add <public_key.pem> | --issuer <url>`: pins keys in the user's trust file, which
 * `svc seal verify` uses when no key is given on the command line. Prints each key id so the user
 * can compare it with the one the issuer publishes.
 */
export async function runTrustAdd(
  pem: string | undefined,
  options: { issuer?: string },
  config: TrustFiles,
): Promise<string> {
  if ((pem === undefined) === (options.issuer === undefined)) {
    throw new CliError("USAGE", "give either a public key PEM file or --issuer <entitlement url>, not both");
  }
  let added: StoredKey[];
  if (options.issuer !== undefined) {
    // issue 38 item 3: each key pinned only for this issuer, a key published for another refused
    added = await fetchIssuerKeysToPin(parseIssuerUrl(options.issuer));
    if (added.length === 0)
      throw new CliError("ISSUER_RESPONSE_INVALID", `${options.issuer} publishes no keys`);
  } else {
    const path = pem as string;
    added = [{ ...publicKeyFromPem((await readFileOrThrow(path)).toString("utf8"), path), source: path }];
  }
  const keys = await addToKeysFile(config.trustFile, added);
  const lines = added.map((key) => `trusted ${key.key_id} (from ${key.source})`);
  return `${lines.join("\n")}\n${keys.length} key(s) in ${config.trustFile}\n`;
}

/** `svc trust list`: the keys of the user's trust file. */
export async function runTrustList(config: TrustFiles): Promise<string> {
  let keys: StoredKey[];
  try {
    keys = await readKeysFile(config.trustFile);
  } catch (error) {
    if (error instanceof CliError && error.code === "FILE_NOT_FOUND" && !config.trustFileExplicit) {
      return `no trusted keys (${config.trustFile} does not exist); add one with ${svcCommand()} trust add --issuer <entitlement url>\n`;
    }
    throw error;
  }
  const lines = keys.map((key) => {
    const window = [
      key.not_before ? `from ${key.not_before}` : "",
      key.not_after ? `until ${key.not_after}` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return `${key.key_id}${window ? `  ${window}` : ""}${key.source ? `  (${key.source})` : ""}`;
  });
  return `${config.trustFile}\n${lines.join("\n")}\n`;
}
