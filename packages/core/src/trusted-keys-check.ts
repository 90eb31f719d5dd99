import { trustedKeyListSchema } from "./contracts/trusted-key.ts";
import { importPublicKeyPem, keyIdOf, type TrustedKey } from "./keys.ts";

/** Every problem found in a list of trusted keys, each naming where it is (`<where>[2].key_id: …`). */
export type TrustedKeysCheck = { ok: true; keys: TrustedKey[] } | { ok: false; problems: string[] };

/**
 * The one check of a list of trusted keys, wherever it comes from (SVC_TRUSTED_KEYS_FILE, a
 * `svc trust` file, an issuer's GET /api/seal/keys): the shape of contracts/trusted-key.ts, then
 * each PEM must be an Ed25519 public key whose id is the `key_id` written beside it, so a key
 * cannot be trusted under another key's name. Unknown fields are dropped.
 */
export function checkTrustedKeys(value: unknown, where: string): TrustedKeysCheck {
  const parsed = trustedKeyListSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (issue) =>
          `${where}${issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("")}: ${issue.message}`,
      ),
    };
  const problems: string[] = [];
  parsed.data.forEach((key, index) => {
    let actual: string;
    try {
      actual = keyIdOf(importPublicKeyPem(key.public_key_pem));
    } catch {
      problems.push(`${where}[${index}].public_key_pem: not an Ed25519 public key`);
      return;
    }
    if (actual !== key.key_id)
      problems.push(`${where}[${index}].key_id: ${key.key_id} is not the id of its key (${actual})`);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, keys: parsed.data };
}
