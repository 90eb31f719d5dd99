import jsQRModule from "jsqr";
import QRCode from "qrcode";
import { SEAL_LAYOUT } from "./seal-layout.ts";
import type { Point } from "./svg-geometry.ts";

const { qr } = SEAL_LAYOUT;
// jsqr is CommonJS with an `exports.default`; under Node's ESM interop that is `.default.default`.
type JsQr = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: object,
) => { data: string } | null;
const jsQR = (jsQRModule as unknown as { default: JsQr }).default;
const QUIET_MODULES = 4; // ISO/IEC 18004 §6.3.8 quiet zone
const RASTER_SCALE = 2; // pixels per SVG unit when reading the symbol back (a module is >= 2 units, so >= 4 px)

/**
 * SVG path data of a standard QR code (ISO/IEC 18004, error correction M) for `content`,
 * one rectangle per horizontal run of dark modules, centred in the barcode region.
 */
export function qrCodePath(content: string): string {
  const { size, moduleSize, offsetX, offsetY, modules } = layoutSymbol(content);
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && modules.get(row, col)) col++;
      const width = (col - start) * moduleSize;
      parts.push(
        `M${offsetX + start * moduleSize} ${offsetY + row * moduleSize}h${width}v${moduleSize}h-${width}Z`,
      );
    }
  }
  return parts.join("");
}

type SymbolLayout = ReturnType<typeof computeLayout>;
// Verifying a seal lays out the same symbol twice (the canonical rendering and the module-by-module
// comparison) and QR encoding with mask selection was ~15% of a genuine verify in the profile
// (bench/seal-verify.bench.ts); the layout is a pure function of the content, so the last few are
// kept. Read-only: callers only call `modules.get`.
const LAYOUT_CACHE_SIZE = 8;
const layouts = new Map<string, SymbolLayout>();

/** The QR symbol for `content` and where this format places it. */
function layoutSymbol(content: string): SymbolLayout {
  const cached = layouts.get(content);
  if (cached) return cached;
  const layout = computeLayout(content);
  if (layouts.size >= LAYOUT_CACHE_SIZE) layouts.delete(layouts.keys().next().value as string);
  layouts.set(content, layout);
  return layout;
}

function computeLayout(content: string) {
  const symbol = QRCode.create(content, { errorCorrectionLevel: "M" });
  const size = symbol.modules.size;
  const moduleSize = Math.floor(qr.side / (size + 2 * QUIET_MODULES));
  if (moduleSize < 2) throw new RangeError(`QR content too long for the seal (${content.length} characters)`);
  const offsetX = qr.x + Math.floor((qr.side - size * moduleSize) / 2);
  const offsetY = qr.y + Math.floor((qr.side - size * moduleSize) / 2);
  return { size, moduleSize, offsetX, offsetY, modules: symbol.modules };
}

/** True when every vertex lies inside the barcode region. */
export function isInBarcodeRegion(points: readonly Point[]): boolean {
  return points.every(
    (point) => point.x >= qr.x && point.x <= qr.x + qr.side && point.y >= qr.y && point.y <= qr.y + qr.side,
  );
}

/**
 * Reads the QR code back from the dark polygons drawn in the barcode region: they are
 * scan-converted into a bitmap and handed to an ordinary QR decoder, as a phone camera would.
 * Error correction would forgive a changed module, so the symbol must also be, module for
 * module, the one this format renders for `expectedContent`, with nothing else drawn around it.
 */
export function readBarcodeChannel(
  polygons: readonly (readonly Point[])[],
  expectedContent: string,
): { ok: boolean; detail: string } {
  const pixels = qr.side * RASTER_SCALE;
  const dark = new Uint8Array(pixels * pixels);
  for (const polygon of polygons) fillPolygon(polygon, dark, pixels);
  const rgba = new Uint8ClampedArray(pixels * pixels * 4);
  for (let i = 0; i < dark.length; i++) {
    const value = dark[i] ? 0 : 255;
    rgba[i * 4] = value;
    rgba[i * 4 + 1] = value;
    rgba[i * 4 + 2] = value;
    rgba[i * 4 + 3] = 255;
  }
  const decoded = jsQR(rgba, pixels, pixels, { inversionAttempts: "dontInvert" });
  if (!decoded) return { ok: false, detail: "no readable QR code in the barcode region" };
  if (decoded.data !== expectedContent)
    return { ok: false, detail: `QR reads ${JSON.stringify(decoded.data)}` };
  const differing = countDifferingModules(dark, pixels, expectedContent);
  if (differing > 0)
    return { ok: false, detail: `QR decodes but ${differing} module(s) differ from the sealed symbol` };
  return { ok: true, detail: "QR carries the barcode digest" };
}

function countDifferingModules(dark: Uint8Array, pixels: number, content: string): number {
  const { size, moduleSize, offsetX, offsetY, modules } = layoutSymbol(content);
  const isDarkAt = (x: number, y: number) =>
    dark[Math.floor((y - qr.y) * RASTER_SCALE) * pixels + Math.floor((x - qr.x) * RASTER_SCALE)] === 1;
  let differing = 0;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const expected = Boolean(modules.get(row, col));
      if (isDarkAt(offsetX + (col + 0.5) * moduleSize, offsetY + (row + 0.5) * moduleSize) !== expected)
        differing++;
    }
  }
  // Anything dark outside the symbol (quiet zone and margin) is a change too.
  const symbolLeft = (offsetX - qr.x) * RASTER_SCALE;
  const symbolTop = (offsetY - qr.y) * RASTER_SCALE;
  const symbolSide = size * moduleSize * RASTER_SCALE;
  for (let y = 0; y < pixels; y++) {
    for (let x = 0; x < pixels; x++) {
      const inside =
        x >= symbolLeft && x < symbolLeft + symbolSide && y >= symbolTop && y < symbolTop + symbolSide;
      if (!inside && dark[y * pixels + x]) return differing + 1;
    }
  }
  return differing;
}

/** Even-odd scanline fill of one polygon, sampled at pixel centres. */
function fillPolygon(polygon: readonly Point[], dark: Uint8Array, pixels: number): void {
  if (polygon.length < 3) return;
  const ys = polygon.map((point) => (point.y - qr.y) * RASTER_SCALE);
  const minRow = Math.max(0, Math.floor(Math.min(...ys)));
  const maxRow = Math.min(pixels - 1, Math.ceil(Math.max(...ys)));
  for (let row = minRow; row <= maxRow; row++) {
    const y = row + 0.5;
    const crossings: number[] = [];
    for (let i = 0; i < polygon.length; i++) {
      const a = polygon[i] as Point;
      const b = polygon[(i + 1) % polygon.length] as Point;
      const ay = (a.y - qr.y) * RASTER_SCALE;
      const by = (b.y - qr.y) * RASTER_SCALE;
      if (ay <= y === by <= y) continue;
      const ax = (a.x - qr.x) * RASTER_SCALE;
      const bx = (b.x - qr.x) * RASTER_SCALE;
      crossings.push(ax + ((y - ay) / (by - ay)) * (bx - ax));
    }
    crossings.sort((p, q) => p - q);
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const from = Math.max(0, Math.ceil((crossings[i] as number) - 0.5));
      const to = Math.min(pixels - 1, Math.floor((crossings[i + 1] as number) - 0.5));
      for (let col = from; col <= to; col++) dark[row * pixels + col] = 1;
    }
  }
}
