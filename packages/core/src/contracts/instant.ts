/**
 * A UTC instant at second precision, `YYYY-MM-DDThh:mm:ssZ` (RFC 3339 §5.6 profile the seal
 * schema and the ledger use: no fraction, `Z` only).
 */
export function toInstant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
