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
// Pixels per module when reading the symbol back: the fewest that put samples inside every module
// away from its edges (a quarter and three quarters across). jsQR reads every symbol size this
// format draws at this resolution (verify-seal-svg.test.ts); more pixels only cost locator time.
const PIXELS_PER_MODULE = 2;

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
  const layout = layoutSymbol(expectedContent);
  // Nothing dark may lie outside the symbol (quiet zone and margin). Checked on the vertices
  // themselves, so no shape, however thin, can hide between the raster's sample points.
  if (!polygons.every((polygon) => isInsideSymbol(polygon, layout)))
    return { ok: false, detail: "a dark shape lies outside the QR symbol (its quiet zone or margin)" };
  const raster = rasterise(polygons, layout);
  const decoded = decode(raster);
  if (!decoded) return { ok: false, detail: "no readable QR code in the barcode region" };
  if (decoded !== expectedContent) return { ok: false, detail: `QR reads ${JSON.stringify(decoded)}` };
  const differing = countDifferingModules(raster, layout);
  if (differing > 0)
    return { ok: false, detail: `QR decodes but ${differing} module(s) differ from the sealed symbol` };
  return { ok: true, detail: "QR carries the barcode digest" };
}

function isInsideSymbol(polygon: readonly Point[], layout: SymbolLayout): boolean {
  const side = layout.size * layout.moduleSize;
  return polygon.every(
    (point) =>
      point.x >= layout.offsetX &&
      point.x <= layout.offsetX + side &&
      point.y >= layout.offsetY &&
      point.y <= layout.offsetY + side,
  );
}

/** A square bitmap of the symbol and its quiet zone, PIXELS_PER_MODULE pixels a module. */
interface Raster {
  readonly dark: Uint8Array;
  /** Pixels a side. */
  readonly side: number;
  /** Top-left corner of the bitmap in SVG units, and pixels per unit. */
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

/**
 * Scan-converts the symbol with its ISO/IEC 18004 §6.3.8 quiet zone (the area a scanner needs)
 * at a resolution fixed by the symbol, not the page: module edges fall on pixel edges, and every
 * module is sampled at PIXELS_PER_MODULE² points (a quarter and three quarters across).
 */
function rasterise(polygons: readonly (readonly Point[])[], layout: SymbolLayout): Raster {
  const side = (layout.size + 2 * QUIET_MODULES) * PIXELS_PER_MODULE;
  const raster: Raster = {
    dark: new Uint8Array(side * side),
    side,
    x: layout.offsetX - QUIET_MODULES * layout.moduleSize,
    y: layout.offsetY - QUIET_MODULES * layout.moduleSize,
    scale: PIXELS_PER_MODULE / layout.moduleSize,
  };
  for (const polygon of polygons) fillPolygon(polygon, raster);
  return raster;
}

/** The QR content an ordinary decoder (jsQR) reads from the bitmap, or null. */
function decode(raster: Raster): string | null {
  const rgba = new Uint8ClampedArray(raster.dark.length * 4).fill(255);
  for (let i = 0; i < raster.dark.length; i++) {
    if (raster.dark[i] === 0) continue;
    rgba[i * 4] = 0;
    rgba[i * 4 + 1] = 0;
    rgba[i * 4 + 2] = 0;
  }
  return jsQR(rgba, raster.side, raster.side, { inversionAttempts: "dontInvert" })?.data ?? null;
}

/** Modules whose pixels are not all as the sealed symbol has them. */
function countDifferingModules(raster: Raster, layout: SymbolLayout): number {
  const { size, modules } = layout;
  let differing = 0;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const expected = modules.get(row, col) ? 1 : 0;
      const top = (row + QUIET_MODULES) * PIXELS_PER_MODULE;
      const left = (col + QUIET_MODULES) * PIXELS_PER_MODULE;
      let same = true;
      for (let y = top; y < top + PIXELS_PER_MODULE; y++)
        for (let x = left; x < left + PIXELS_PER_MODULE; x++)
          if (raster.dark[y * raster.side + x] !== expected) same = false;
      if (!same) differing++;
    }
  }
  return differing;
}

/** Even-odd scanline fill of one polygon, sampled at pixel centres. */
function fillPolygon(polygon: readonly Point[], raster: Raster): void {
  const count = polygon.length;
  if (count < 3) return;
  const { dark, side, scale } = raster;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const point = polygon[i] as Point;
    xs[i] = (point.x - raster.x) * scale;
    const y = (point.y - raster.y) * scale;
    ys[i] = y;
    if (y < top) top = y;
    if (y > bottom) bottom = y;
  }
  const minRow = Math.max(0, Math.floor(top));
  const maxRow = Math.min(side - 1, Math.ceil(bottom));
  const crossings: number[] = [];
  for (let row = minRow; row <= maxRow; row++) {
    const y = row + 0.5;
    crossings.length = 0;
    for (let i = 0; i < count; i++) {
      const j = i + 1 === count ? 0 : i + 1;
      const ay = ys[i] as number;
      const by = ys[j] as number;
      if (ay <= y === by <= y) continue;
      const ax = xs[i] as number;
      crossings.push(ax + ((y - ay) / (by - ay)) * ((xs[j] as number) - ax));
    }
    if (crossings.length > 2) crossings.sort((p, q) => p - q);
    else if (crossings.length === 2 && (crossings[0] as number) > (crossings[1] as number))
      crossings.reverse();
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const from = Math.max(0, Math.ceil((crossings[i] as number) - 0.5));
      const to = Math.min(side - 1, Math.floor((crossings[i + 1] as number) - 0.5));
      for (let col = from; col <= to; col++) dark[row * side + col] = 1;
    }
  }
}
