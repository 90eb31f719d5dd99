/**
 * The machine-readable copy of a seal inside its SVG. It is written twice, in a namespaced
 * `<metadata>` element and as a single token in `<desc>`; both are part of the canonical
 * rendering, so a file from which an optimiser stripped either no longer verifies (issue 9 §1:
 * `svc seal render` writes the canonical image again from a payload whose signature verifies).
 *
 * Token: `svc.seal/v1;key=<key_id>;payload=<base64url canonical JSON>;sig=<base64url signature>`
 * (a pre-seal has `svc.preseal/v1;payload=...` and no key or signature).
 */
export const SEAL_XML_NAMESPACE = "urn:svc:seal:v1";

export interface EmbeddedSeal {
  readonly version: string;
  readonly keyId: string | null;
  readonly payloadBytes: Buffer;
  readonly signature: Buffer | null;
}

/** Serialises an embedded seal to its token form. */
export function formatSealToken(seal: EmbeddedSeal): string {
  const parts = [seal.version];
  if (seal.keyId) parts.push(`key=${seal.keyId}`);
  parts.push(`payload=${seal.payloadBytes.toString("base64url")}`);
  if (seal.signature) parts.push(`sig=${seal.signature.toString("base64url")}`);
  return parts.join(";");
}

/** Parses a token; whitespace anywhere is ignored (pretty-printers may wrap long text). */
export function parseSealToken(text: string): EmbeddedSeal | null {
  const [version, ...fields] = text.replace(/\s+/g, "").split(";");
  if (!version || !/^svc\.(pre)?seal\/v\d+$/.test(version)) return null;
  const values = new Map<string, string>();
  for (const field of fields) {
    const eq = field.indexOf("=");
    if (eq <= 0 || values.has(field.slice(0, eq))) return null;
    values.set(field.slice(0, eq), field.slice(eq + 1));
  }
  const payload = values.get("payload");
  if (!payload || !isBase64Url(payload)) return null;
  const sig = values.get("sig");
  if (sig !== undefined && !isBase64Url(sig)) return null;
  return {
    version,
    keyId: values.get("key") ?? null,
    payloadBytes: Buffer.from(payload, "base64url"),
    signature: sig === undefined ? null : Buffer.from(sig, "base64url"),
  };
}

/** True when both copies carry the same bytes. */
export function isSameEmbeddedSeal(a: EmbeddedSeal, b: EmbeddedSeal): boolean {
  return (
    a.version === b.version &&
    a.keyId === b.keyId &&
    a.payloadBytes.equals(b.payloadBytes) &&
    (a.signature === null ? b.signature === null : b.signature !== null && a.signature.equals(b.signature))
  );
}

function isBase64Url(text: string): boolean {
  return /^[A-Za-z0-9_-]*$/.test(text);
}
