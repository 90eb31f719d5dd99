import { checkTrustedKeys, type TrustedKeysCheck } from "@svc/core";

/**
 * Parses the text of SVC_TRUSTED_KEYS_FILE (a JSON array of trusted keys) and checks it with
 * core's one trusted-key check. Returns the keys, or every problem (config validation reports
 * them with the others, ARCHITECTURE.md convention 4).
 */
export function parseTrustedKeysFile(text: string): TrustedKeysCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problems: ["SVC_TRUSTED_KEYS_FILE is not JSON"] };
  }
  return checkTrustedKeys(json, "SVC_TRUSTED_KEYS_FILE");
}
