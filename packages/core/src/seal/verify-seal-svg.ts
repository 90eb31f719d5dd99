import { canonicalBytes } from "../canonical-json.ts";
import { importPublicKeyPem, isKeyValidAt, keyIdOf, type TrustedKey, verifyBytes } from "../keys.ts";
import { isInBarcodeRegion, readBarcodeChannel } from "./barcode-channel.ts";
import {
  type EmbeddedSeal,
  isSameEmbeddedSeal,
  parseSealToken,
  SEAL_XML_NAMESPACE,
} from "./embedded-seal.ts";
import { classifyRingShape, decodeRingBits } from "./ring-channel.ts";
import { SEAL_LAYOUT } from "./seal-layout.ts";
import {
  barcodeContent,
  computeBarcodeDigest,
  PRESEAL_VERSION,
  type PresealPayload,
  presealPayloadSchema,
  type SealPayload,
  sealPayloadSchema,
} from "./seal-payload.ts";
import { parseSvgDocument, type SvgElement } from "./svg-document.ts";
import { isFilledDark, type Point, polygonsOf } from "./svg-geometry.ts";

/** Verification states (domain notes, "Seal"). PARTIAL is not produced by an SVG check. */
export type SealState = "VERIFIED" | "INVALID" | "UNVERIFIED" | "PENDING";

export type SealCheckName =
  | "svg_readable"
  | "embedded_seal"
  | "payload_schema"
  | "key_trusted"
  | "signature"
  | "ring_channel"
  | "barcode_channel"
  | "barcode_digest";

export interface SealCheck {
  readonly name: SealCheckName;
  readonly ok: boolean;
  readonly detail: string;
}

export interface SealVerification {
  readonly state: SealState;
  /** One sentence: why this state. */
  readonly reason: string;
  readonly checks: readonly SealCheck[];
  readonly payload: SealPayload | PresealPayload | null;
  /** Raw signature found in the SVG (null for pre-seals or unreadable input). */
  readonly signature: Buffer | null;
}

/**
 * Verifies a seal SVG with nothing but the SVG and the keys the caller trusts. VERIFIED needs
 * all of: a trusted key valid at `issued_at`, a good Ed25519 signature over the canonical
 * payload, the ring decoding to `seal_id`, the QR decoding to the payload's barcode content,
 * and `barcode_digest` matching the sealed hashes. Any mismatch is INVALID; an untrusted key
 * with otherwise consistent channels is UNVERIFIED; a pre-seal is PENDING. Never throws.
 */
export function verifySealSvg(
  svg: string | Uint8Array,
  trustedKeys: readonly TrustedKey[],
): SealVerification {
  try {
    return verifyUnsafe(svg, trustedKeys);
  } catch (error) {
    // Defence in depth: the checks below are written not to throw; if one does, the seal fails closed.
    return invalid([{ name: "svg_readable", ok: false, detail: `unexpected: ${(error as Error).message}` }]);
  }
}

function verifyUnsafe(svg: string | Uint8Array, trustedKeys: readonly TrustedKey[]): SealVerification {
  const checks: SealCheck[] = [];
  const parsed = parseSvgDocument(svg);
  if (!parsed.ok) return invalid([{ name: "svg_readable", ok: false, detail: parsed.reason }]);
  checks.push({ name: "svg_readable", ok: true, detail: `${parsed.elements.length} elements` });

  const found = findEmbeddedSeal(parsed.elements);
  if ("error" in found)
    return invalid([...checks, { name: "embedded_seal", ok: false, detail: found.error }]);
  const embedded = found.seal;
  checks.push({ name: "embedded_seal", ok: true, detail: `${embedded.version} (${found.copies})` });

  const payload = parsePayload(embedded);
  if ("error" in payload)
    return invalid([...checks, { name: "payload_schema", ok: false, detail: payload.error }]);
  checks.push({ name: "payload_schema", ok: true, detail: `${payload.value.seal_version}, canonical` });

  if (payload.value.seal_version === PRESEAL_VERSION) {
    return {
      state: "PENDING",
      reason: "pre-seal: the run finished but run_complete has not issued its seal yet",
      checks,
      payload: payload.value,
      signature: null,
    };
  }
  const seal = payload.value as SealPayload;
  const darkPolygons = parsed.elements.filter(isDrawnShape).flatMap(polygonsOf);
  const keyCheck = checkKey(seal, embedded, trustedKeys);
  checks.push(keyCheck.check);
  if (keyCheck.publicKeyPem) checks.push(checkSignature(keyCheck.publicKeyPem, embedded));
  checks.push(checkRing(seal, darkPolygons));
  checks.push(checkBarcode(seal, darkPolygons));
  const recomputed = computeBarcodeDigest(seal);
  checks.push({
    name: "barcode_digest",
    ok: recomputed === seal.barcode_digest,
    detail: recomputed === seal.barcode_digest ? "matches the sealed hashes" : `expected ${recomputed}`,
  });

  const failed = checks.filter((check) => !check.ok);
  const definite = failed.filter((check) => check.name !== "key_trusted");
  if (definite.length > 0) {
    return {
      state: "INVALID",
      reason: describe(definite),
      checks,
      payload: seal,
      signature: embedded.signature,
    };
  }
  if (failed.length > 0) {
    return {
      state: "UNVERIFIED",
      reason: describe(failed),
      checks,
      payload: seal,
      signature: embedded.signature,
    };
  }
  return {
    state: "VERIFIED",
    reason: "signature valid and both channels reconcile",
    checks,
    payload: seal,
    signature: embedded.signature,
  };
}

function findEmbeddedSeal(
  elements: readonly SvgElement[],
): { seal: EmbeddedSeal; copies: string } | { error: string } {
  const fromDesc = elements
    .filter((element) => element.local === "desc")
    .map((element) => parseSealToken(element.text))
    .filter((seal) => seal !== null);
  const fromMetadata = metadataSeal(elements);
  const copies = [...fromDesc, ...(fromMetadata ? [fromMetadata] : [])];
  const first = copies[0];
  if (!first) return { error: "no embedded seal (neither <metadata> nor <desc> carries one)" };
  if (!copies.every((copy) => isSameEmbeddedSeal(copy, first))) {
    return { error: "the embedded copies of the seal disagree" };
  }
  const where = [fromMetadata ? "metadata" : null, fromDesc.length > 0 ? "desc" : null]
    .filter(Boolean)
    .join(" + ");
  return { seal: first, copies: where };
}

function metadataSeal(elements: readonly SvgElement[]): EmbeddedSeal | null {
  const root = elements.find((element) => element.uri === SEAL_XML_NAMESPACE && element.local === "seal");
  if (!root) return null;
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

function parsePayload(embedded: EmbeddedSeal): { value: SealPayload | PresealPayload } | { error: string } {
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

function checkKey(
  seal: SealPayload,
  embedded: EmbeddedSeal,
  trustedKeys: readonly TrustedKey[],
): { check: SealCheck; publicKeyPem: string | null } {
  if (embedded.keyId !== seal.key_id) {
    return {
      check: { name: "signature", ok: false, detail: "embedded key id differs from the signed key_id" },
      publicKeyPem: null,
    };
  }
  const key = trustedKeys.find((candidate) => candidate.key_id === seal.key_id && isMatchingKeyId(candidate));
  if (!key)
    return {
      check: { name: "key_trusted", ok: false, detail: `key ${seal.key_id} is not trusted` },
      publicKeyPem: null,
    };
  if (!isKeyValidAt(key, seal.issued_at)) {
    return {
      check: {
        name: "key_trusted",
        ok: false,
        detail: `key ${seal.key_id} was not valid at ${seal.issued_at}`,
      },
      publicKeyPem: null,
    };
  }
  return { check: { name: "key_trusted", ok: true, detail: seal.key_id }, publicKeyPem: key.public_key_pem };
}

function isMatchingKeyId(key: TrustedKey): boolean {
  try {
    return keyIdOf(importPublicKeyPem(key.public_key_pem)) === key.key_id;
  } catch {
    return false;
  }
}

function checkSignature(publicKeyPem: string, embedded: EmbeddedSeal): SealCheck {
  const ok =
    embedded.signature !== null &&
    verifyBytes(importPublicKeyPem(publicKeyPem), embedded.payloadBytes, embedded.signature);
  return {
    name: "signature",
    ok,
    detail: ok ? "Ed25519 over the canonical payload" : "signature does not verify",
  };
}

function checkRing(seal: SealPayload, polygons: readonly (readonly Point[])[]): SealCheck {
  const slots = new Map<number, number[]>();
  for (const polygon of polygons) {
    const shape = classifyRingShape(polygon);
    if (!shape) continue;
    slots.set(shape.slot, [...(slots.get(shape.slot) ?? []), shape.bit]);
  }
  const bits: number[] = [];
  for (let slot = 0; slot < SEAL_LAYOUT.ring.slots; slot++) {
    const found = slots.get(slot) ?? [];
    if (found.length !== 1) {
      return {
        name: "ring_channel",
        ok: false,
        detail: `ring slot ${slot} has ${found.length} segments, expected 1`,
      };
    }
    bits.push(found[0] as number);
  }
  const decoded = decodeRingBits(bits);
  if ("error" in decoded) return { name: "ring_channel", ok: false, detail: decoded.error };
  if (decoded.sealId !== seal.seal_id) {
    return {
      name: "ring_channel",
      ok: false,
      detail: `ring encodes ${decoded.sealId}, payload says ${seal.seal_id}`,
    };
  }
  return { name: "ring_channel", ok: true, detail: `ring encodes ${decoded.sealId}` };
}

function checkBarcode(seal: SealPayload, polygons: readonly (readonly Point[])[]): SealCheck {
  return {
    name: "barcode_channel",
    ...readBarcodeChannel(polygons.filter(isInBarcodeRegion), barcodeContent(seal)),
  };
}

function isDrawnShape(element: SvgElement): boolean {
  if (!["path", "rect", "polygon"].includes(element.local)) return false;
  // Shapes inside <defs>, <metadata>, masks and the like are not drawn in place.
  for (let node = element.parent; node; node = node.parent) {
    if (["defs", "metadata", "mask", "clipPath", "pattern", "symbol", "marker"].includes(node.local))
      return false;
  }
  return isFilledDark(element);
}

function invalid(checks: SealCheck[]): SealVerification {
  return {
    state: "INVALID",
    reason: describe(checks.filter((check) => !check.ok)),
    checks,
    payload: null,
    signature: null,
  };
}

function describe(failed: readonly SealCheck[]): string {
  return failed.map((check) => `${check.name}: ${check.detail}`).join("; ");
}
