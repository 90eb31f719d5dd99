import { SaxesParser } from "saxes";

/** Bounds for untrusted SVG input (issue: hostile uploads are refused, never crash). */
export const SVG_LIMITS = {
  maxBytes: 1024 * 1024,
  maxDepth: 64,
  maxElements: 20_000,
} as const;

export interface SvgElement {
  readonly local: string;
  readonly uri: string;
  /** The name as written, prefix included (`svcseal:seal`). */
  readonly qualifiedName: string;
  /** Attributes without a namespace (plus `xlink:*`/`xml:*` under their prefixed names). */
  readonly attributes: ReadonlyMap<string, string>;
  /** Every attribute as written, namespace declarations included, by qualified name. */
  readonly rawAttributes: ReadonlyMap<string, string>;
  readonly parent: SvgElement | null;
  readonly children: SvgElement[];
  /** Concatenated text directly inside the element. */
  text: string;
}

/** Markup other than elements and text: what a seal never contains (issue 9 §1). */
export interface SvgForeignMarkup {
  readonly kind: "comment" | "CDATA section" | "processing instruction";
  /** XPath-like path of the element it sits in (`/svg[1]/g[1]/path[3]`), or `(document)`. */
  readonly inside: string;
}

export type SvgParseResult =
  | {
      ok: true;
      /** The document as decoded text. */
      text: string;
      elements: SvgElement[];
      root: SvgElement;
      /**
       * The first comment, CDATA section or processing instruction, if any: a seal has none, so
       * the first is all a verifier needs (and keeping 50,000 of them would cost more than a seal).
       */
      foreign: SvgForeignMarkup | null;
      /** Total subpaths (moveto commands) over every `d` attribute. */
      subpaths: number;
      /** `encoding` of the XML declaration, if it names one. */
      declaredEncoding: string | null;
      /** `version` of the XML declaration, if there is one. */
      declaredVersion: string | null;
    }
  | { ok: false; reason: string; tooComplex?: boolean };

export interface SvgParseLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxElements: number;
  /** Path subpaths (moveto commands) over every `d` attribute; unbounded when absent. */
  readonly maxSubpaths?: number;
  /** Comments, CDATA sections and processing instructions; unbounded when absent. */
  readonly maxMarkup?: number;
  /** Attributes (namespace declarations included) over the document; unbounded when absent. */
  readonly maxAttributes?: number;
}

export const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

/**
 * Parses untrusted SVG into an element tree (also listed flat, in document order). Refuses
 * oversize input, any DOCTYPE (so no entity definitions, hence no billion-laughs or external
 * entities), undefined entities, deep nesting and element floods. Never throws.
 */
export function parseSvgDocument(
  input: string | Uint8Array,
  limits: SvgParseLimits = SVG_LIMITS,
): SvgParseResult {
  const size = typeof input === "string" ? Buffer.byteLength(input, "utf8") : input.length;
  if (size > limits.maxBytes)
    return { ok: false, tooComplex: true, reason: oversizeReason(size, limits.maxBytes) };
  let text: string;
  try {
    text = typeof input === "string" ? input : new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    return { ok: false, reason: "input is not UTF-8" };
  }
  const elements: SvgElement[] = [];
  const stack: SvgElement[] = [];
  let foreign: SvgForeignMarkup | null = null;
  let subpaths = 0;
  let declaredEncoding: string | null = null;
  let declaredVersion: string | null = null;
  let tooComplex = false;
  // Each open element's path, 1-based among same-named siblings, built as the parser descends:
  // constant work per node, however many siblings or how much markup (issue 23 item 11; walking
  // the siblings for each comment made 256 KiB of them cost 20 genuine seals).
  const paths: string[] = [];
  const childCounts: Map<string, number>[] = [new Map()];
  let markupCount = 0;
  const markup = (kind: SvgForeignMarkup["kind"]) => {
    foreign ??= { kind, inside: paths.at(-1) ?? "(document)" };
    if (limits.maxMarkup !== undefined && ++markupCount > limits.maxMarkup) {
      tooComplex = true;
      throw new Error(`more than ${limits.maxMarkup} comments, CDATA sections or processing instructions`);
    }
  };
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on("xmldecl", (declaration) => {
    declaredEncoding = declaration.encoding ?? null;
    declaredVersion = declaration.version ?? null;
  });
  parser.on("doctype", () => {
    throw new Error("DOCTYPE is not allowed in a seal");
  });
  parser.on("comment", () => markup("comment"));
  parser.on("processinginstruction", () => markup("processing instruction"));
  let attributeCount = 0;
  if (limits.maxAttributes !== undefined) {
    const maxAttributes = limits.maxAttributes;
    parser.on("attribute", () => {
      if (++attributeCount > maxAttributes) {
        tooComplex = true;
        throw new Error(`more than ${maxAttributes} attributes`);
      }
    });
  }
  parser.on("opentag", (node) => {
    if (elements.length >= limits.maxElements) {
      tooComplex = true;
      throw new Error(`more than ${limits.maxElements} elements`);
    }
    if (stack.length >= limits.maxDepth) {
      tooComplex = true;
      throw new Error(`nesting deeper than ${limits.maxDepth}`);
    }
    const attributes = new Map<string, string>();
    const rawAttributes = new Map<string, string>();
    for (const attribute of Object.values(node.attributes)) {
      rawAttributes.set(attribute.name, attribute.value);
      if (attribute.uri === "") attributes.set(attribute.local, attribute.value);
    }
    const d = attributes.get("d");
    if (d !== undefined) subpaths += countMovetos(d);
    if (limits.maxSubpaths !== undefined && subpaths > limits.maxSubpaths) {
      tooComplex = true;
      throw new Error(`${subpaths} path subpaths; the limit is ${limits.maxSubpaths}`);
    }
    const parent = stack.at(-1) ?? null;
    const element: SvgElement = {
      local: node.local,
      uri: node.uri,
      qualifiedName: node.name,
      attributes,
      rawAttributes,
      parent,
      children: [],
      text: "",
    };
    parent?.children.push(element);
    elements.push(element);
    const counts = childCounts.at(-1) as Map<string, number>;
    const index = (counts.get(node.name) ?? 0) + 1;
    counts.set(node.name, index);
    if (!node.isSelfClosing) {
      stack.push(element);
      paths.push(`${paths.at(-1) ?? ""}/${node.name}[${index}]`);
      childCounts.push(new Map());
    }
  });
  parser.on("closetag", (node) => {
    if (node.isSelfClosing) return;
    stack.pop();
    paths.pop();
    childCounts.pop();
  });
  parser.on("text", (chunk) => {
    const current = stack.at(-1);
    if (current) current.text += chunk;
  });
  parser.on("cdata", (chunk) => {
    markup("CDATA section");
    const current = stack.at(-1);
    if (current) current.text += chunk;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    const message = (error as Error).message.split("\n")[0];
    if (tooComplex) return { ok: false, tooComplex, reason: message ?? "too complex" };
    return { ok: false, reason: `not a well-formed SVG: ${message}` };
  }
  const root = elements[0];
  if (root?.local !== "svg" || root.uri !== SVG_NAMESPACE) {
    return { ok: false, reason: "root element is not <svg> in the SVG namespace" };
  }
  return { ok: true, text, elements, root, foreign, subpaths, declaredEncoding, declaredVersion };
}

/** Why an input of `size` bytes is refused unread. */
export function oversizeReason(size: number, maxBytes: number): string {
  return `input is ${size} bytes; the limit is ${maxBytes}`;
}

function countMovetos(d: string): number {
  let count = 0;
  for (let i = 0; i < d.length; i++) {
    const code = d.charCodeAt(i);
    if (code === 77 || code === 109) count++; // "M" or "m"
  }
  return count;
}
