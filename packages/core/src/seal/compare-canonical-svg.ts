import type { SvgElement, SvgForeignMarkup } from "./svg-document.ts";

/** Where an uploaded seal first departs from its canonical rendering, and how. */
export interface CanonicalDifference {
  /** Element path, e.g. `/svg[1]/g[1]/path[3]` (1-based among same-named siblings). */
  readonly path: string;
  readonly what: string;
}

/**
 * Attributes whose value is a number or a list of numbers (SVG 1.1 §4.2 number grammar, §8.3.9
 * path data): two spellings of the same numbers draw the same thing, so `240`, `240.0` and
 * `2.4e2`, or `M1 2` and `M1,2`, are equal here. Every other attribute compares as a string.
 */
const NUMERIC_ATTRIBUTES = new Set([
  "x",
  "y",
  "width",
  "height",
  "cx",
  "cy",
  "r",
  "stroke-width",
  "font-size",
  "viewBox",
  "d",
  "stroke-dasharray",
]);

const XML_WHITESPACE = /^[ \t\r\n]*$/;
const SEPARATOR = /^[ \t\r\n]*,?[ \t\r\n]*$/;
const TOKEN = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[ \t\r\n,]+|[^ \t\r\n,]/g;

/**
 * Compares an uploaded seal with the seal's canonical rendering (issue 9 §1). They must have the
 * same elements (namespace, prefix and name), the same attributes with the same values, and the
 * same text code point by code point. Only what cannot change what is drawn may differ:
 * whitespace between elements, attribute order and quoting, the XML declaration, and the
 * spelling of numbers. Any comment, CDATA section or processing instruction is a difference.
 * Returns the first difference in document order, or null when there is none.
 */
export function findCanonicalDifference(
  upload: {
    root: SvgElement;
    foreign: readonly SvgForeignMarkup[];
    declaredEncoding: string | null;
    declaredVersion: string | null;
  },
  canonical: { root: SvgElement },
): CanonicalDifference | null {
  const markup = upload.foreign[0];
  if (markup) return { path: markup.inside, what: `contains a ${markup.kind}; a seal has none` };
  if (upload.declaredEncoding !== null && upload.declaredEncoding.toLowerCase() !== "utf-8") {
    return { path: "(document)", what: `declares encoding ${upload.declaredEncoding}; a seal is UTF-8` };
  }
  // XML 1.1 normalises other line ends (U+0085, U+2028) than 1.0 readers do: one text, two readings.
  if (upload.declaredVersion !== null && upload.declaredVersion !== "1.0") {
    return { path: "(document)", what: `declares XML ${upload.declaredVersion}; a seal is XML 1.0` };
  }
  return compareElement(upload.root, canonical.root, `/${canonical.root.qualifiedName}[1]`);
}

function compareElement(upload: SvgElement, canonical: SvgElement, path: string): CanonicalDifference | null {
  if (upload.qualifiedName !== canonical.qualifiedName || upload.uri !== canonical.uri) {
    const namespaces =
      upload.uri === canonical.uri ? "" : ` (namespace ${upload.uri || "none"}, expected ${canonical.uri})`;
    return { path, what: `is <${upload.qualifiedName}>, expected <${canonical.qualifiedName}>${namespaces}` };
  }
  const attributes = compareAttributes(upload, canonical);
  if (attributes) return { path, what: attributes };
  if (canonical.children.length === 0) {
    const extra = upload.children[0];
    if (extra) return { path, what: `has a child <${extra.qualifiedName}>; the seal has none here` };
    if (upload.text !== canonical.text) {
      return { path, what: `text is ${quote(upload.text)}, expected ${quote(canonical.text)}` };
    }
    return null;
  }
  if (!XML_WHITESPACE.test(upload.text)) {
    return { path, what: `holds text ${quote(upload.text.trim())}; the seal has only elements here` };
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < canonical.children.length; i++) {
    const expected = canonical.children[i] as SvgElement;
    const index = (seen.get(expected.qualifiedName) ?? 0) + 1;
    seen.set(expected.qualifiedName, index);
    const childPath = `${path}/${expected.qualifiedName}[${index}]`;
    const actual = upload.children[i];
    if (!actual) return { path: childPath, what: "is missing" };
    const difference = compareElement(actual, expected, childPath);
    if (difference) return difference;
  }
  const extra = upload.children[canonical.children.length];
  if (extra) {
    return { path, what: `has an extra child <${extra.qualifiedName}> after the seal's last one` };
  }
  return null;
}

function compareAttributes(upload: SvgElement, canonical: SvgElement): string | null {
  for (const [name, expected] of canonical.rawAttributes) {
    const actual = upload.rawAttributes.get(name);
    if (actual === undefined) return `attribute ${name} is missing`;
    if (actual === expected) continue;
    if (NUMERIC_ATTRIBUTES.has(name) && isSameNumberList(actual, expected)) continue;
    return `attribute ${name} is ${quote(actual)}, expected ${quote(expected)}`;
  }
  for (const name of upload.rawAttributes.keys()) {
    if (!canonical.rawAttributes.has(name)) return `has an extra attribute ${name}`;
  }
  return null;
}

/**
 * True when both values are the same sequence of numbers and letters. Separators may differ
 * only between valid spellings (whitespace, at most one comma between two numbers).
 */
function isSameNumberList(actual: string, expected: string): boolean {
  const a = significantTokens(actual);
  const b = significantTokens(expected);
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) continue;
    if (!isNumber(x) || !isNumber(y) || Number(x) !== Number(y)) return false;
  }
  return true;
}

function significantTokens(value: string): string[] | null {
  const tokens = value.match(TOKEN) ?? [];
  const significant: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (!/^[ \t\r\n,]+$/.test(token)) {
      significant.push(token);
      continue;
    }
    if (!SEPARATOR.test(token)) return null;
    if (token.includes(",") && !(isNumber(tokens[i - 1]) && isNumber(tokens[i + 1]))) return null;
  }
  return significant;
}

function isNumber(token: string | undefined): boolean {
  return token !== undefined && /^[+-]?(?:\d|\.\d)/.test(token);
}

function quote(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  // Control, bidi and other non-ASCII characters are shown as escapes, so a message about a
  // forged label cannot itself be reordered or hidden by the terminal that prints it.
  return JSON.stringify(shown).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
