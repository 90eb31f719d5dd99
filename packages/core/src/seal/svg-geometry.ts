import type { SvgElement } from "./svg-document.ts";

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Affine matrix [a, b, c, d, e, f] as in SVG 1.1 §7.4. */
type Matrix = readonly [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

const PARAMETER_COUNT: Record<string, number> = {
  m: 2,
  l: 2,
  h: 1,
  v: 1,
  c: 6,
  s: 4,
  q: 4,
  t: 2,
  a: 7,
  z: 0,
};

/**
 * Vertices of each subpath of SVG path data (SVG 1.1 §8.3), absolute coordinates. Curves and
 * arcs contribute their end points only: enough for the seal's channels, which are decoded from
 * straight-edged QR runs and from the corners of ring segments. Stops at the first error, as a
 * renderer does (§F.2).
 */
export function parsePathData(d: string): Point[][] {
  const scanner = new PathScanner(d);
  const subpaths: Point[][] = [];
  let current: Point[] | null = null;
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let command = "";
  while (true) {
    scanner.skipSeparators();
    if (scanner.done()) break;
    const letter = scanner.peekCommand();
    if (letter) {
      command = letter;
      scanner.advance();
    } else if (!command || command.toLowerCase() === "z") {
      break;
    }
    const lower = command.toLowerCase();
    const relative = command !== command.toUpperCase();
    if (lower === "z") {
      x = startX;
      y = startY;
      current = null;
      continue;
    }
    const values = scanner.readParameters(PARAMETER_COUNT[lower] ?? -1, lower === "a");
    if (!values) break;
    const baseX = relative ? x : 0;
    const baseY = relative ? y : 0;
    switch (lower) {
      case "m":
        x = baseX + (values[0] as number);
        y = baseY + (values[1] as number);
        startX = x;
        startY = y;
        current = [{ x, y }];
        subpaths.push(current);
        // SVG 1.1 §8.3.2: coordinates after a moveto are implicit linetos.
        command = relative ? "l" : "L";
        continue;
      case "h":
        x = baseX + (values[0] as number);
        break;
      case "v":
        y = baseY + (values[0] as number);
        break;
      default:
        x = baseX + (values[values.length - 2] as number);
        y = baseY + (values[values.length - 1] as number);
    }
    if (!current) {
      current = [{ x: startX, y: startY }];
      subpaths.push(current);
    }
    current.push({ x, y });
  }
  return subpaths.map((points) => dropClosingDuplicate(points));
}

/** The polygons an element draws, in user space of the root (transforms applied). */
export function polygonsOf(element: SvgElement): Point[][] {
  const matrix = transformOf(element);
  let polygons: Point[][];
  switch (element.local) {
    case "path":
      polygons = parsePathData(element.attributes.get("d") ?? "");
      break;
    case "rect": {
      const [x, y, w, h] = ["x", "y", "width", "height"].map((name) =>
        Number(element.attributes.get(name) ?? 0),
      );
      if (!(w && h && Number.isFinite(x) && Number.isFinite(y) && w > 0 && h > 0)) return [];
      polygons = [
        [
          { x: x as number, y: y as number },
          { x: (x as number) + w, y: y as number },
          { x: (x as number) + w, y: (y as number) + h },
          { x: x as number, y: (y as number) + h },
        ],
      ];
      break;
    }
    case "polygon": {
      const numbers = (element.attributes.get("points") ?? "").match(NUMBER_PATTERN)?.map(Number) ?? [];
      const points: Point[] = [];
      for (let i = 0; i + 1 < numbers.length; i += 2)
        points.push({ x: numbers[i] as number, y: numbers[i + 1] as number });
      polygons = [points];
      break;
    }
    default:
      return [];
  }
  if (matrix === IDENTITY) return polygons;
  return polygons.map((polygon) => polygon.map((point) => apply(matrix, point)));
}

/** True when the element is filled with a dark colour (fill inherited per SVG 1.1 §11.2). */
export function isFilledDark(element: SvgElement): boolean {
  for (let node: SvgElement | null = element; node; node = node.parent) {
    if (isHidden(node)) return false;
  }
  const fill = inheritedProperty(element, "fill") ?? "#000";
  return isDarkColor(fill);
}

function inheritedProperty(element: SvgElement, name: string): string | undefined {
  for (let node: SvgElement | null = element; node; node = node.parent) {
    const fromStyle = styleProperty(node, name);
    if (fromStyle !== undefined) return fromStyle;
    const attribute = node.attributes.get(name);
    if (attribute !== undefined && attribute.trim() !== "inherit") return attribute.trim();
  }
  return undefined;
}

function styleProperty(element: SvgElement, name: string): string | undefined {
  const style = element.attributes.get("style");
  if (!style) return undefined;
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon > 0 && declaration.slice(0, colon).trim() === name) return declaration.slice(colon + 1).trim();
  }
  return undefined;
}

function isHidden(element: SvgElement): boolean {
  return (
    element.attributes.get("display") === "none" ||
    styleProperty(element, "display") === "none" ||
    element.attributes.get("visibility") === "hidden" ||
    element.attributes.get("opacity") === "0" ||
    element.attributes.get("fill-opacity") === "0"
  );
}

const NAMED_COLORS: Record<string, string> = {
  black: "#000000",
  white: "#ffffff",
  none: "none",
  transparent: "none",
};

/** Relative luminance below one half (WCAG 2.x definition, without gamma for speed). */
export function isDarkColor(value: string): boolean {
  const color = NAMED_COLORS[value.toLowerCase()] ?? value.toLowerCase();
  if (color === "none") return false;
  let rgb: number[] | null = null;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(color);
  if (hex) {
    const digits =
      (hex[1] as string).length === 3
        ? [...(hex[1] as string)].map((c) => c + c)
        : (hex[1] as string).match(/../g);
    rgb = (digits ?? []).map((pair) => Number.parseInt(pair, 16));
  }
  const functional = /^rgb\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)\s*\)$/.exec(color);
  if (functional) rgb = functional.slice(1, 4).map(Number);
  if (!rgb) return true; // An unknown paint still paints: count it, so a decoder sees the change.
  const [r, g, b] = rgb as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
}

function transformOf(element: SvgElement): Matrix {
  let matrix = IDENTITY;
  for (let node: SvgElement | null = element; node; node = node.parent) {
    const transform = node.attributes.get("transform");
    if (transform) matrix = multiply(parseTransform(transform), matrix);
  }
  return matrix;
}

/** SVG 1.1 §7.6 transform lists: matrix, translate, scale, rotate, skewX, skewY. */
export function parseTransform(text: string): Matrix {
  let matrix = IDENTITY;
  for (const match of text.matchAll(/(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g)) {
    const args = ((match[2] as string).match(NUMBER_PATTERN) ?? []).map(Number);
    const [p = 0, q, r, s, t, u] = args;
    let step: Matrix = IDENTITY;
    switch (match[1]) {
      case "matrix":
        step = [p, q ?? 0, r ?? 0, s ?? 0, t ?? 0, u ?? 0];
        break;
      case "translate":
        step = [1, 0, 0, 1, p, q ?? 0];
        break;
      case "scale":
        step = [p, 0, 0, q ?? p, 0, 0];
        break;
      case "rotate": {
        const radians = (p * Math.PI) / 180;
        const cos = Math.cos(radians);
        const sin = Math.sin(radians);
        const cx = q ?? 0;
        const cy = r ?? 0;
        step = multiply(multiply([1, 0, 0, 1, cx, cy], [cos, sin, -sin, cos, 0, 0]), [1, 0, 0, 1, -cx, -cy]);
        break;
      }
      case "skewX":
        step = [1, 0, Math.tan((p * Math.PI) / 180), 1, 0, 0];
        break;
      case "skewY":
        step = [1, Math.tan((p * Math.PI) / 180), 0, 1, 0, 0];
        break;
    }
    matrix = multiply(matrix, step);
  }
  return matrix;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, point: Point): Point {
  return { x: m[0] * point.x + m[2] * point.y + m[4], y: m[1] * point.x + m[3] * point.y + m[5] };
}

function dropClosingDuplicate(points: Point[]): Point[] {
  const first = points[0];
  const last = points.at(-1);
  if (points.length > 1 && first && last && first.x === last.x && first.y === last.y)
    return points.slice(0, -1);
  return points;
}

const NUMBER_PATTERN = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

const COMMAND_LETTERS = new Set([..."MmLlHhVvCcSsQqTtAaZz"].map((letter) => letter.charCodeAt(0)));

/** `[\s,]`, with the ASCII cases (all a canonical seal has) decided without a regular expression. */
function isSeparator(code: number): boolean {
  if (code === 0x20 || code === 0x2c || (code >= 0x09 && code <= 0x0d)) return true;
  return code > 0x7f && /\s/.test(String.fromCharCode(code));
}

/**
 * Character scanner for path data; arc flags may be written without separators (SVG 2 §9.3.9).
 * It works on char codes, without regular expressions: path data is most of a seal's bytes and is
 * read on every verification (bench/seal-verify.bench.ts).
 */
class PathScanner {
  private index = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  done(): boolean {
    return this.index >= this.text.length;
  }

  skipSeparators(): void {
    while (this.index < this.text.length && isSeparator(this.text.charCodeAt(this.index))) this.index++;
  }

  peekCommand(): string | null {
    return COMMAND_LETTERS.has(this.text.charCodeAt(this.index)) ? (this.text[this.index] as string) : null;
  }

  advance(): void {
    this.index++;
  }

  readParameters(count: number, isArc: boolean): number[] | null {
    if (count < 0) return null;
    const values: number[] = [];
    for (let i = 0; i < count; i++) {
      this.skipSeparators();
      const value = isArc && (i === 3 || i === 4) ? this.readFlag() : this.readNumber();
      if (value === null) return null;
      values.push(value);
    }
    return values;
  }

  private readFlag(): number | null {
    const char = this.text[this.index];
    if (char !== "0" && char !== "1") return null;
    this.index++;
    return Number(char);
  }

  /** A number as SVG 1.1 §8.3.9 spells it: sign? (digits (. digits?)? | . digits) exponent?. */
  private readNumber(): number | null {
    const { text } = this;
    const start = this.index;
    let at = start;
    let code = text.charCodeAt(at);
    if (code === 0x2b || code === 0x2d) code = text.charCodeAt(++at); // + -
    let digits = 0;
    while (code >= 0x30 && code <= 0x39) {
      digits++;
      code = text.charCodeAt(++at);
    }
    if (code === 0x2e) {
      // "."
      code = text.charCodeAt(++at);
      while (code >= 0x30 && code <= 0x39) {
        digits++;
        code = text.charCodeAt(++at);
      }
    }
    if (digits === 0) return null;
    if (code === 0x65 || code === 0x45) {
      // an exponent counts only with digits: "2e" is the number 2 and then a stray "e"
      let exponent = at + 1;
      let next = text.charCodeAt(exponent);
      if (next === 0x2b || next === 0x2d) next = text.charCodeAt(++exponent);
      const exponentStart = exponent;
      while (next >= 0x30 && next <= 0x39) next = text.charCodeAt(++exponent);
      if (exponent > exponentStart) at = exponent;
    }
    this.index = at;
    return Number(text.slice(start, at));
  }
}
