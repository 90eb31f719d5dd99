import { canonicalBytes } from "../canonical-json.ts";
import {
  type EmbeddedSeal,
  isSameEmbeddedSeal,
  parseSealToken,
  SEAL_XML_NAMESPACE,
} from "./embedded-seal.ts";
import {
  PRESEAL_VERSION,
  type PresealPayload,
  presealPayloadSchema,
  type SealPayload,
  sealPayloadSchema,
} from "./seal-payload.ts";
import type { SealReasonCode } from "./seal-reason-code.ts";
import type { SvgElement } from "./svg-document.ts";

/** The one embedded seal of a file (metadata and desc copies agreeing), or why there is none. */
export function findEmbeddedSeal(
  elements: readonly SvgElement[],
): { seal: EmbeddedSeal; copies: string } | { error: string; code: SealReasonCode } {
  const fromDesc = elements
    .filter((element) => element.local === "desc")
    .map((element) => parseSealToken(element.text))
    .filter((seal) => seal !== null);
  const sealElements = elements.filter(
    (element) => element.uri === SEAL_XML_NAMESPACE && element.local === "seal",
  );
  // Exactly one seal per file: a second payload is refused, never ignored (issue 9).
  if (sealElements.length > 1 || fromDesc.length > 1)
    return { error: "more than one embedded seal", code: "SEAL_NOT_UNIQUE" };
  const fromMetadata = sealElements[0] ? metadataSeal(elements, sealElements[0]) : null;
  const copies = [...fromDesc, ...(fromMetadata ? [fromMetadata] : [])];
  const first = copies[0];
  if (!first)
    return { error: "no embedded seal (neither <metadata> nor <desc> carries one)", code: "SEAL_NOT_FOUND" };
  if (!copies.every((copy) => isSameEmbeddedSeal(copy, first))) {
    return { error: "the embedded copies of the seal disagree", code: "SEAL_NOT_UNIQUE" };
  }
  const where = [fromMetadata ? "metadata" : null, fromDesc.length > 0 ? "desc" : null]
    .filter(Boolean)
    .join(" + ");
  return { seal: first, copies: where };
}

function metadataSeal(elements: readonly SvgElement[], root: SvgElement): EmbeddedSeal | null {
  const child = (local: string) =>
    elements.find(
      (element) => element.parent === root && element.uri === SEAL_XML_NAMESPACE && element.local === local,
    );
  const version = root.attributes.get("version");
  const payload = child("payload")?.text.replace(/\s+/g, "");
  const signature = child("signature")?.text.replace(/\s+/g, "");
  if (!version || !payload) return null;
  return parseSealToken(
    [
      version,
      root.attributes.has("key_id") ? `key=${root.attributes.get("key_id")}` : null,
      `payload=${payload}`,
      signature === undefined ? null : `sig=${signature}`,
    ]
      .filter((part) => part !== null)
      .join(";"),
  );
}

/** The embedded payload, validated and required to be canonical JSON. */
export function parsePayload(
  embedded: EmbeddedSeal,
): { value: SealPayload | PresealPayload } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(embedded.payloadBytes));
  } catch {
    return { error: "payload is not UTF-8 JSON" };
  }
  const schema = embedded.version === PRESEAL_VERSION ? presealPayloadSchema : sealPayloadSchema;
  const result = schema.safeParse(json);
  if (!result.success) {
    return {
      error: result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
    };
  }
  if (result.data.seal_version !== embedded.version)
    return { error: "payload version differs from the embedded version" };
  // The signature is over canonical bytes; any other encoding of the same data is refused.
  if (!canonicalBytes(result.data).equals(embedded.payloadBytes))
    return { error: "payload bytes are not canonical JSON" };
  return { value: result.data };
}
