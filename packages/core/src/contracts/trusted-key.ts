import { z } from "zod";
import { RUN_FILES } from "../run-folder/run-files.ts";

/**
 * A public key a verifier trusts, with the window in which it may have signed (ISO 8601
 * instants; absent or null bound = open) and the issuer it was pinned for (absent or null = any:
 * a key given by hand, or pinned before keys named their issuer). The shape of each entry of `GET /api/seal/keys`, of a
 * keys file (SVC_TRUSTED_KEYS_FILE, `svc trust`) and of core's verifier input.
 */
export const trustedKeySchema = z.object({
  key_id: z.string().min(1).describe("ed25519: + 32 hex digits of the public key's SHA-256"),
  public_key_pem: z.string().regex(/-----BEGIN PUBLIC KEY-----/, "must be a PEM public key"),
  not_before: z.iso.datetime({ offset: true }).nullable().optional(),
  not_after: z.iso.datetime({ offset: true }).nullable().optional(),
  log_from: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe(
      `the issuer keeps a seal log since this instant: a seal this key signed, issued at or after it, carries ${RUN_FILES.sealLogProof}, and a folder without it is LOG_PROOF_MISSING (issue 38 item 2)`,
    ),
  issuer: z
    .string()
    .min(1)
    .max(256)
    .nullable()
    .optional()
    .describe(
      "the issuer (a seal payload's `issuer`) this key signs for; when set, the key verifies only seals naming it (issue 23 item 8)",
    ),
});

/** A list of trusted keys, as a keys file holds it. */
export const trustedKeyListSchema = z.array(trustedKeySchema);
