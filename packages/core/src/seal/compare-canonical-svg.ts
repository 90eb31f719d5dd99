import type { SvgElement, SvgForeignMarkup } from "./svg-document.ts";

/** Where an uploaded seal first departs from its canonical rendering, and how. */
export interface CanonicalDifference {
  /** Element path, e.g. `/svg[1]/g[1]/path[3]` (1-based among same-named siblings). */
  readonly path: string;
  readonly what: string;
}

const XML_WHITESPACE = /^[ \t\r\n]*$/;

/**
 * Compares an uploaded seal with the seal's canonical rendering (issue 9 §1). They must have the
 * same elements (namespace, prefix and name), the same attributes with the same values, and the
 * same text code point by code point. Only what cannot change what is drawn may differ:
 * whitespace between elements, attribute order and quoting, and the XML declaration. Attribute
 * values are compared as the renderer spells them, character for character, never as parsed
 * numbers (issue 23 item 1): a reader that takes `126.` or ` 126 ` for 126 is not the reader that
 * draws it. `126.` is no number in SVG 1.1's attribute grammar (§4.2), and Chromium, finding it
 * in y, font-size or path data, draws the label at y=0 and the path not at all. Any comment,
 * CDATA section or processing instruction is a difference.
 * Returns the first difference in document order, or null when there is none.
 */
export function findCanonicalDifference(
  upload: {
    root: SvgElement;
    foreign: SvgForeignMarkup | null;
    declaredEncoding: string | null;
    declaredVersion: string | null;
  },
  canonical: { root: SvgElement },
): CanonicalDifference | null {
  const markup = upload.foreign;
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
    return `attribute ${name} is ${quote(actual)}, expected ${quote(expected)}`;
  }
  for (const name of upload.rawAttributes.keys()) {
    if (!canonical.rawAttributes.has(name)) return `has an extra attribute ${name}`;
  }
  return null;
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
