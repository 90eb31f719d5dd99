import { z } from "zod";
import { canonicalBytes } from "../canonical-json.ts";
import { sha256Hex } from "../digest.ts";

/**
 * One leaf of the seal log (issue 30 item 1): what a verifier needs to tie a leaf to a seal and
 * nothing more. `payload_sha256` is SHA-256 of seal.json (the signed canonical bytes); `time` is
 * the seal's issued_at for `issued`, the revocation instant for `revoked`.
 */
export const logEntrySchema = z
  .object({
    event: z.enum(["issued", "revoked"]),
    key_id: z.string(),
    payload_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    run_id: z.string(),
    seal_id: z.string(),
    time: z.string(),
  })
  .strict();

export type LogEntry = z.infer<typeof logEntrySchema>;

/** The leaf's bytes: RFC 8785 canonical JSON of the entry (core canonical-json). */
export function logEntryBytes(entry: LogEntry): Buffer {
  return canonicalBytes(logEntrySchema.parse(entry));
}

/** Parses a leaf's bytes; null unless they are exactly the canonical bytes of an entry. */
export function parseLogEntry(bytes: Uint8Array): LogEntry | null {
  try {
    const parsed = logEntrySchema.safeParse(JSON.parse(Buffer.from(bytes).toString("utf8")));
    if (!parsed.success) return null;
    return canonicalBytes(parsed.data).equals(bytes) ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The `issued` entry of a seal, from its seal.json bytes and the fields it signs. */
export function issuedEntryOf(
  sealJson: string | Uint8Array,
  payload: { seal_id: string; run_id: string; key_id: string; issued_at: string },
): LogEntry {
  return {
    event: "issued",
    key_id: payload.key_id,
    payload_sha256: sha256Hex(typeof sealJson === "string" ? Buffer.from(sealJson, "utf8") : sealJson),
    run_id: payload.run_id,
    seal_id: payload.seal_id,
    time: payload.issued_at,
  };
}
