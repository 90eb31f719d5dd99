import { importPublicKeyPem, keyIdOf, type TrustedKey, trustedKeyListSchema } from "@svc/core";

/**
 * Parses and checks the text of SVC_TRUSTED_KEYS_FILE with core's trusted-key schema: a JSON
 * array of `{ key_id, public_key_pem, not_before?, not_after? }`, each PEM an Ed25519 public key
 * whose key id is the one written beside it. Returns the keys, or every problem (config
 * validation reports them with the others, ARCHITECTURE.md convention 4).
 */
export function parseTrustedKeysFile(
  text: string,
): { ok: true; keys: TrustedKey[] } | { ok: false; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problems: ["SVC_TRUSTED_KEYS_FILE is not JSON"] };
  }
  const parsed = trustedKeyListSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (issue) =>
          `SVC_TRUSTED_KEYS_FILE${issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("")}: ${issue.message}`,
      ),
    };
  const problems: string[] = [];
  parsed.data.forEach((key, index) => {
    try {
      const actual = keyIdOf(importPublicKeyPem(key.public_key_pem));
      if (actual !== key.key_id)
        problems.push(
          `SVC_TRUSTED_KEYS_FILE[${index}].key_id: ${key.key_id} is not the id of its key (${actual})`,
        );
    } catch {
      problems.push(`SVC_TRUSTED_KEYS_FILE[${index}].public_key_pem: not an Ed25519 public key`);
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, keys: parsed.data };
}
