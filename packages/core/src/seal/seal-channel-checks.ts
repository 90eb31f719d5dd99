import { isInBarcodeRegion, readBarcodeChannel } from "./barcode-channel.ts";
import { classifyRingShape, decodeRingBits } from "./ring-channel.ts";
import type { SealCheck } from "./seal-check.ts";
import { SEAL_LAYOUT } from "./seal-layout.ts";
import { barcodeContent, type SealPayload } from "./seal-payload.ts";
import type { SvgElement } from "./svg-document.ts";
import { isFilledDark, type Point, polygonsOf } from "./svg-geometry.ts";

/**
 * Reads the ring and the QR code back from the drawn shapes, as a scanner would, and compares
 * them with the payload: the check that does not trust the renderer.
 */
export function decodeSealChannels(elements: readonly SvgElement[], seal: SealPayload): SealCheck[] {
  const darkPolygons = elements.filter(isDrawnShape).flatMap(polygonsOf);
  return [checkRing(seal, darkPolygons), checkBarcode(seal, darkPolygons)];
}

function checkRing(seal: SealPayload, polygons: readonly (readonly Point[])[]): SealCheck {
  const result = readRing(seal, polygons);
  return result.ok ? result : { ...result, code: "RING_CHANNEL_MISMATCH" };
}

function readRing(seal: SealPayload, polygons: readonly (readonly Point[])[]): SealCheck {
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
  const read = readBarcodeChannel(polygons.filter(isInBarcodeRegion), barcodeContent(seal));
  return {
    name: "barcode_channel",
    ...read,
    ...(read.ok ? {} : { code: "BARCODE_CHANNEL_MISMATCH" as const }),
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
