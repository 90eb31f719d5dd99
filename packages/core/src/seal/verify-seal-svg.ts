import { importPublicKeyPem, isKeyValidAt, keyIdOf, type TrustedKey, verifyBytes } from "../keys.ts";
import { findCanonicalDifference } from "./compare-canonical-svg.ts";
import type { EmbeddedSeal } from "./embedded-seal.ts";
import { findEmbeddedSeal, parsePayload } from "./find-embedded-seal.ts";
import { renderPresealSvg, renderSealSvg } from "./render-seal-svg.ts";
import { decodeSealChannels } from "./seal-channel-checks.ts";
import type { SealCheck } from "./seal-check.ts";
import {
  computeBarcodeDigest,
  PRESEAL_VERSION,
  type PresealPayload,
  type SealPayload,
} from "./seal-payload.ts";
import { REASON_PRIORITY, type SealReasonCode, type SealState, stateOfReason } from "./seal-reason-code.ts";
import { oversizeReason, parseSvgDocument, type SvgParseResult } from "./svg-document.ts";

export { decodeSealChannels } from "./seal-channel-checks.ts";
export type { SealCheck, SealCheckName } from "./seal-check.ts";
export type { SealState } from "./seal-reason-code.ts";

export interface SealVerification {
  readonly state: SealState;
  /** One sentence: why this state. */
  readonly reason: string;
  /** Stable code of the deciding failure (see SEAL_REASON_CODES); null when VERIFIED. */
  readonly reason_code: SealReasonCode | null;
  readonly checks: readonly SealCheck[];
  readonly payload: SealPayload | PresealPayload | null;
  /** Raw signature found in the SVG (null for pre-seals or unreadable input). */
  readonly signature: Buffer | null;
  /**
   * The canonical rendering of the signed payload: the picture a page may show as the trusted
   * one. Set only when the signature verified against a trusted key (or for a pre-seal).
   */
  readonly canonical_svg: string | null;
}

/**
 * Structural caps for a seal upload, checked while parsing and before any decoding (issue 9 §7).
 * The canonical seal is about 30 KB, 162 elements and 900 subpaths (1,000 with the longest QR
 * link), so these are several times above it and far below what makes decoding costly. A seal
 * has no comment, CDATA section or processing instruction: a few are refused by name
 * (IMAGE_NOT_CANONICAL), but tens of thousands in 256 KiB cost the XML parser more than a whole
 * genuine seal (issue 23 item 11), so past `maxMarkup` the parse stops; so it does past
 * `maxAttributes` (a seal has about 220; 25,000 in 256 KiB cost four genuine seals).
 */
export const SEAL_SVG_CAPS = {
  maxBytes: 256 * 1024,
  maxDepth: 16,
  maxElements: 1000,
  maxSubpaths: 8000,
  maxMarkup: 64,
  maxAttributes: 2000,
} as const;

/**
 * Verifies a seal SVG with nothing but the SVG and the keys the caller trusts. VERIFIED needs
 * all of: a trusted key valid at `issued_at`, a good Ed25519 signature over the canonical
 * payload, `barcode_digest` matching the sealed hashes, an image that is the canonical rendering
 * of that payload (so what a person sees is what was signed), and, read back independently from
 * the shapes, the ring decoding to `seal_id` and the QR to the payload's barcode content.
 * Any mismatch is INVALID; an untrusted key with nothing else wrong is UNVERIFIED; a pre-seal is
 * PRESEAL_UNSIGNED. Never throws.
 */
export function verifySealSvg(
  svg: string | Uint8Array,
  trustedKeys: readonly TrustedKey[],
): SealVerification {
  try {
    return verifyUnsafe(svg, trustedKeys);
  } catch (error) {
    // Defence in depth: the checks below are written not to throw; if one does, the seal fails closed.
    return settle(
      [
        {
          name: "svg_readable",
          ok: false,
          detail: `unexpected: ${(error as Error).message}`,
          code: "SVG_UNREADABLE",
        },
      ],
      { payload: null, signature: null, canonical_svg: null },
    );
  }
}

/**
 * The verdict on an upload of `byteLength` bytes that is over SEAL_SVG_CAPS.maxBytes, the same
 * verifySealSvg gives for it, from its size alone: a service can count such an upload's bytes as
 * they arrive and drop them instead of holding them. Null when the size is within the cap.
 */
export function refuseOversizeSeal(byteLength: number): SealVerification | null {
  if (byteLength <= SEAL_SVG_CAPS.maxBytes) return null;
  const detail = oversizeReason(byteLength, SEAL_SVG_CAPS.maxBytes);
  return settle([{ name: "svg_readable", ok: false, detail, code: "SVG_TOO_COMPLEX" }], {
    payload: null,
    signature: null,
    canonical_svg: null,
  });
}

/**
 * Adds checks to a verification (a seal folder's files, a run's hashes, the issuer's revocation
 * answer) and derives its state again: the first failure in REASON_PRIORITY order decides.
 */
export function withChecks(result: SealVerification, extra: readonly SealCheck[]): SealVerification {
  return settle([...result.checks, ...extra], result);
}

function verifyUnsafe(svg: string | Uint8Array, trustedKeys: readonly TrustedKey[]): SealVerification {
  const none = { payload: null, signature: null, canonical_svg: null };
  const checks: SealCheck[] = [];
  const oversize = refuseOversizeSeal(typeof svg === "string" ? Buffer.byteLength(svg, "utf8") : svg.length);
  if (oversize) return oversize;
  const parsed = parseSvgDocument(svg, SEAL_SVG_CAPS);
  if (!parsed.ok) {
    const code = parsed.tooComplex ? "SVG_TOO_COMPLEX" : "SVG_UNREADABLE";
    return settle([{ name: "svg_readable", ok: false, detail: parsed.reason, code }], none);
  }
  checks.push({
    name: "svg_readable",
    ok: true,
    detail: `${parsed.elements.length} elements, ${parsed.subpaths} subpaths`,
  });

  const found = findEmbeddedSeal(parsed.elements);
  if ("error" in found)
    return settle(
      [...checks, { name: "embedded_seal", ok: false, detail: found.error, code: found.code }],
      none,
    );
  const embedded = found.seal;
  checks.push({ name: "embedded_seal", ok: true, detail: `${embedded.version} (${found.copies})` });

  const payload = parsePayload(embedded);
  if ("error" in payload)
    return settle(
      [...checks, { name: "payload_schema", ok: false, detail: payload.error, code: "PAYLOAD_INVALID" }],
      none,
    );
  checks.push({ name: "payload_schema", ok: true, detail: `${payload.value.seal_version}, canonical` });

  if (payload.value.seal_version === PRESEAL_VERSION) {
    const canonical = renderPresealSvg(payload.value as PresealPayload);
    checks.push(checkCanonical(parsed, canonical));
    return settle(checks, { payload: payload.value, signature: null, canonical_svg: canonical });
  }
  const seal = payload.value as SealPayload;
  const keyCheck = checkKey(seal, embedded, trustedKeys);
  checks.push(keyCheck.check);
  const signature = keyCheck.publicKeyPem ? checkSignature(keyCheck.publicKeyPem, embedded) : null;
  if (signature) checks.push(signature);
  const recomputed = computeBarcodeDigest(seal);
  const digestOk = recomputed === seal.barcode_digest;
  checks.push({
    name: "barcode_digest",
    ok: digestOk,
    detail: digestOk ? "matches the sealed hashes" : `expected ${recomputed}`,
    ...(digestOk ? {} : { code: "BARCODE_DIGEST_MISMATCH" as const }),
  });
  const canonical =
    digestOk && embedded.signature?.length === 64 ? renderSealSvg(seal, embedded.signature) : null;
  const image = canonical
    ? checkCanonical(parsed, canonical)
    : {
        name: "canonical_image" as const,
        ok: false,
        detail: "not rendered: the payload and signature cannot make a seal",
        code: "IMAGE_NOT_CANONICAL" as const,
      };
  checks.push(image);
  // The second, independent check of the same facts, only for an image that passed the cheap
  // structural comparison: nothing else is ever rasterised.
  if (image.ok) checks.push(...decodeSealChannels(parsed.elements, seal));
  return settle(checks, {
    payload: seal,
    signature: embedded.signature,
    canonical_svg: signature?.ok ? canonical : null,
  });
}

function settle(
  checks: readonly SealCheck[],
  found: Pick<SealVerification, "payload" | "signature" | "canonical_svg">,
): SealVerification {
  const failed = checks.filter((check) => !check.ok).sort((a, b) => priorityOf(a) - priorityOf(b));
  const deciding = failed[0];
  const base = {
    checks,
    payload: found.payload,
    signature: found.signature,
    canonical_svg: found.canonical_svg,
  };
  if (!deciding) {
    if (found.payload?.seal_version === PRESEAL_VERSION) {
      // issue 23 item 7: anyone can write a pre-seal for any folder with no key, so it is a claim,
      // never a state or an exit code a script could take for success
      return {
        ...base,
        state: "PRESEAL_UNSIGNED",
        reason:
          "pre-seal: an unsigned claim anyone can write for any folder; the issuer never saw it and nothing here is signed",
        reason_code: "PRESEAL_UNSIGNED",
      };
    }
    return {
      ...base,
      state: "VERIFIED",
      reason: "signature valid, the image is the canonical rendering and both channels reconcile",
      reason_code: null,
    };
  }
  const code = deciding.code ?? "SVG_UNREADABLE";
  return {
    ...base,
    state: stateOfReason(code),
    reason: failed.map((check) => `${check.name}: ${check.detail}`).join("; "),
    reason_code: code,
  };
}

function priorityOf(check: SealCheck): number {
  const index = REASON_PRIORITY.indexOf(check.code ?? "SVG_UNREADABLE");
  return index < 0 ? REASON_PRIORITY.length : index;
}

function checkCanonical(upload: SvgParseResult & { ok: true }, canonicalSvg: string): SealCheck {
  // A seal as issued is the canonical rendering byte for byte: equal text is an equal tree, so the
  // rendering need not be parsed a second time (the parse was a quarter of a genuine verify).
  if (upload.text === canonicalSvg)
    return { name: "canonical_image", ok: true, detail: "equals the canonical rendering" };
  const canonical = parseSvgDocument(canonicalSvg);
  if (!canonical.ok) throw new Error(`the canonical rendering does not parse: ${canonical.reason}`);
  const difference = findCanonicalDifference(upload, canonical);
  if (!difference) return { name: "canonical_image", ok: true, detail: "equals the canonical rendering" };
  return {
    name: "canonical_image",
    ok: false,
    detail: `${difference.path}: ${difference.what}`,
    code: "IMAGE_NOT_CANONICAL",
  };
}
function checkKey(
  seal: SealPayload,
  embedded: EmbeddedSeal,
  trustedKeys: readonly TrustedKey[],
): { check: SealCheck; publicKeyPem: string | null } {
  if (embedded.keyId !== seal.key_id) {
    return {
      check: {
        name: "signature",
        ok: false,
        detail: "embedded key id differs from the signed key_id",
        code: "SIGNATURE_INVALID",
      },
      publicKeyPem: null,
    };
  }
  const candidates = trustedKeys.filter(
    (candidate) => candidate.key_id === seal.key_id && isMatchingKeyId(candidate),
  );
  if (candidates.length === 0)
    return {
      check: {
        name: "key_trusted",
        ok: false,
        detail: `key ${seal.key_id} is not trusted`,
        code: "KEY_UNTRUSTED",
      },
      publicKeyPem: null,
    };
  // issue 23 item 8: a key pinned for one issuer never vouches for a seal naming another
  const key = candidates.find((candidate) => !candidate.issuer || candidate.issuer === seal.issuer);
  if (!key)
    return {
      check: {
        name: "key_trusted",
        ok: false,
        detail: `key ${seal.key_id} is pinned for ${candidates.map((candidate) => candidate.issuer).join(", ")}, but the seal names ${seal.issuer} as its issuer`,
        code: "ISSUER_MISMATCH",
      },
      publicKeyPem: null,
    };
  if (!isKeyValidAt(key, seal.issued_at)) {
    return {
      check: {
        name: "key_trusted",
        ok: false,
        detail: `key ${seal.key_id} was not valid at ${seal.issued_at}`,
        code: "KEY_UNTRUSTED",
      },
      publicKeyPem: null,
    };
  }
  return { check: { name: "key_trusted", ok: true, detail: seal.key_id }, publicKeyPem: key.public_key_pem };
}

// A verifier trusts a few keys and meets the same ones on every verification: each PEM is read and
// its key id computed once (both were ~4% of a genuine verify in bench/seal-verify.bench.ts's
// profile). A PEM that does not read is remembered as null. Bounded, as the keys come from callers.
const IMPORTED_KEYS_MAX = 64;
type ImportedKey = { key: ReturnType<typeof importPublicKeyPem>; keyId: string };
const importedKeys = new Map<string, ImportedKey | null>();

function importTrustedKey(pem: string): ImportedKey | null {
  let imported = importedKeys.get(pem);
  if (imported !== undefined) return imported;
  try {
    const key = importPublicKeyPem(pem);
    imported = { key, keyId: keyIdOf(key) };
  } catch {
    imported = null;
  }
  if (importedKeys.size >= IMPORTED_KEYS_MAX) importedKeys.clear();
  importedKeys.set(pem, imported);
  return imported;
}

function isMatchingKeyId(key: TrustedKey): boolean {
  return importTrustedKey(key.public_key_pem)?.keyId === key.key_id;
}

function checkSignature(publicKeyPem: string, embedded: EmbeddedSeal): SealCheck {
  const key = importTrustedKey(publicKeyPem)?.key;
  const ok =
    key !== undefined &&
    embedded.signature !== null &&
    verifyBytes(key, embedded.payloadBytes, embedded.signature);
  return {
    name: "signature",
    ok,
    detail: ok ? "Ed25519 over the canonical payload" : "signature does not verify",
    ...(ok ? {} : { code: "SIGNATURE_INVALID" as const }),
  };
}
