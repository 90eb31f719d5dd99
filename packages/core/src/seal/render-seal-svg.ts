import { canonicalBytes } from "../canonical-json.ts";
import { CoreError } from "../core-error.ts";
import { qrCodePath } from "./barcode-channel.ts";
import { CLAIM_LINE_LABELS, CLAIM_LINE_Y } from "./claim-line.ts";
import { type EmbeddedSeal, formatSealToken, SEAL_XML_NAMESPACE } from "./embedded-seal.ts";
import { escapeDrawnText } from "./escape-drawn-text.ts";
import { encodeRingBits, ringSegmentPath } from "./ring-channel.ts";
import { SEAL_LAYOUT } from "./seal-layout.ts";
import {
  barcodeContent,
  computeBarcodeDigest,
  type PresealPayload,
  parsePresealPayload,
  parseSealPayload,
} from "./seal-payload.ts";

const INK = "#1b2a4a";
const PAPER = "#fbf8ef";

/**
 * Renders a signed seal as a deterministic SVG (same payload and signature, same bytes): a
 * seal a person can read, carrying a ring channel (seal_id) and a QR channel (barcode digest)
 * that a machine decodes from the shapes alone, plus the signed payload itself.
 */
export function renderSealSvg(payload: unknown, signature: Uint8Array): string {
  const seal = parseSealPayload(payload);
  if (signature.length !== 64) throw new CoreError("SEAL_RENDER_INVALID", "an Ed25519 signature is 64 bytes");
  const expectedDigest = computeBarcodeDigest(seal);
  if (seal.barcode_digest !== expectedDigest) {
    throw new CoreError("SEAL_RENDER_INVALID", "barcode_digest does not match the sealed hashes and seal_id");
  }
  const embedded: EmbeddedSeal = {
    version: seal.seal_version,
    keyId: seal.key_id,
    payloadBytes: canonicalBytes(seal),
    signature: Buffer.from(signature),
  };
  const ring = encodeRingBits(seal.seal_id)
    .map((bit, slot) => `<path d="${ringSegmentPath(slot, bit)}"/>`)
    .join("\n");
  const lines = [
    textLine(104, "SVC COMPUTATIONAL AUDIT SEAL", 13, "bold"),
    textLine(126, `run ${seal.run_id}`),
    textLine(143, `project ${seal.project_id} · ${seal.mode}`),
    textLine(160, `issued ${seal.issued_at}`),
    textLine(350, `seal ${seal.seal_id.slice(0, 17)}…`),
    textLine(
      367,
      seal.verify_url ? `verify at ${new URL(seal.verify_url).host}` : "verify: svc seal verify seal.svg",
    ),
    // issue 23 item 5: a v2 seal says what it attests; a v1 seal renders exactly as it was issued
    ...(seal.attestation === "job_reported" ? [textLine(384, "attests: hashes the job reported")] : []),
    // issue 37 item 3: the signed claim strength; a seal without one is drawn as before
    ...(seal.claim_strength ? [textLine(CLAIM_LINE_Y, CLAIM_LINE_LABELS[seal.claim_strength])] : []),
  ];
  return frame(`Audit seal for run ${seal.run_id}`, embedded, [
    `<g fill="${INK}">\n${ring}\n</g>`,
    `<rect x="${SEAL_LAYOUT.qr.x}" y="${SEAL_LAYOUT.qr.y}" width="${SEAL_LAYOUT.qr.side}" height="${SEAL_LAYOUT.qr.side}" fill="#fff"/>`,
    `<path fill="#000" d="${qrCodePath(barcodeContent(seal))}"/>`,
    ...lines,
  ]);
}

/**
 * Renders a pre-seal: the job's record of a finished run whose seal is still to be issued.
 * It has no channels and verifies as PRESEAL_UNSIGNED: anyone can render one, so the picture says
 * it is an unsigned claim, not "pending" (issue 23 item 7).
 */
export function renderPresealSvg(payload: PresealPayload): string {
  const preseal = parsePresealPayload(payload);
  const embedded: EmbeddedSeal = {
    version: preseal.seal_version,
    keyId: null,
    payloadBytes: canonicalBytes(preseal),
    signature: null,
  };
  return frame(`Unsigned pre-seal for run ${preseal.run_id}`, embedded, [
    `<circle cx="${SEAL_LAYOUT.center.x}" cy="${SEAL_LAYOUT.center.y}" r="211" fill="none" stroke="${INK}" stroke-width="6" stroke-dasharray="4 8"/>`,
    textLine(200, "PRE-SEAL", 22, "bold"),
    textLine(230, "UNSIGNED CLAIM, not a seal"),
    textLine(252, `run ${preseal.run_id}`),
    textLine(270, `project ${preseal.project_id} · ${preseal.mode}`),
    textLine(288, `created ${preseal.created_at}`),
  ]);
}

function frame(title: string, embedded: EmbeddedSeal, body: string[]): string {
  const { size, center } = SEAL_LAYOUT;
  const token = formatSealToken(embedded);
  const signature = embedded.signature
    ? `\n<svcseal:signature encoding="base64url">${embedded.signature.toString("base64url")}</svcseal:signature>`
    : "";
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:svcseal="${SEAL_XML_NAMESPACE}" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img">`,
    `<title>${escapeDrawnText(title)}</title>`,
    `<desc>${token}</desc>`,
    `<metadata>`,
    `<svcseal:seal version="${embedded.version}"${embedded.keyId ? ` key_id="${embedded.keyId}"` : ""} alg="Ed25519">`,
    `<svcseal:payload encoding="base64url">${embedded.payloadBytes.toString("base64url")}</svcseal:payload>${signature}`,
    `</svcseal:seal>`,
    `</metadata>`,
    `<circle cx="${center.x}" cy="${center.y}" r="236" fill="${PAPER}" stroke="${INK}" stroke-width="3"/>`,
    `<circle cx="${center.x}" cy="${center.y}" r="188" fill="none" stroke="${INK}" stroke-width="1"/>`,
    ...body,
    `</svg>`,
    ``,
  ].join("\n");
}

function textLine(y: number, content: string, size = 11, weight = "normal"): string {
  // Cut by code points, never inside a surrogate pair, so every rendering is well-formed UTF-8.
  const chars = [...content];
  const shown = chars.length > 48 ? `${chars.slice(0, 47).join("")}…` : content;
  return `<text x="${SEAL_LAYOUT.center.x}" y="${y}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" font-weight="${weight}" fill="${INK}">${escapeDrawnText(shown)}</text>`;
}
