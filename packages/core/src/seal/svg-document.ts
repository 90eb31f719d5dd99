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
  /** Attributes without a namespace (plus `xlink:*`/`xml:*` under their prefixed names). */
  readonly attributes: ReadonlyMap<string, string>;
  readonly parent: SvgElement | null;
  /** Concatenated text directly inside the element. */
  text: string;
}

export type SvgParseResult =
  | { ok: true; elements: SvgElement[]; root: SvgElement }
  | { ok: false; reason: string };

export const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

/**
 * Parses untrusted SVG into a flat element list. Refuses oversize input, any DOCTYPE (so no
 * entity definitions, hence no billion-laughs or external entities), undefined entities,
 * deep nesting and element floods. Never throws.
 */
export function parseSvgDocument(input: string | Uint8Array): SvgParseResult {
  const size = typeof input === "string" ? Buffer.byteLength(input, "utf8") : input.length;
  if (size > SVG_LIMITS.maxBytes)
    return { ok: false, reason: `input is ${size} bytes; the limit is ${SVG_LIMITS.maxBytes}` };
  let text: string;
  try {
    text = typeof input === "string" ? input : new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    return { ok: false, reason: "input is not UTF-8" };
  }
  const elements: SvgElement[] = [];
  const stack: SvgElement[] = [];
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on("doctype", () => {
    throw new Error("DOCTYPE is not allowed in a seal");
  });
  parser.on("opentag", (node) => {
    if (elements.length >= SVG_LIMITS.maxElements)
      throw new Error(`more than ${SVG_LIMITS.maxElements} elements`);
    if (stack.length >= SVG_LIMITS.maxDepth) throw new Error(`nesting deeper than ${SVG_LIMITS.maxDepth}`);
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(node.attributes)) {
      if (attribute.uri === "") attributes.set(attribute.local, attribute.value);
    }
    const element: SvgElement = {
      local: node.local,
      uri: node.uri,
      attributes,
      parent: stack.at(-1) ?? null,
      text: "",
    };
    elements.push(element);
    if (!node.isSelfClosing) stack.push(element);
  });
  parser.on("closetag", (node) => {
    if (!node.isSelfClosing) stack.pop();
  });
  parser.on("text", (chunk) => {
    const current = stack.at(-1);
    if (current) current.text += chunk;
  });
  parser.on("cdata", (chunk) => {
    const current = stack.at(-1);
    if (current) current.text += chunk;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    return { ok: false, reason: `not a well-formed SVG: ${(error as Error).message.split("\n")[0]}` };
  }
  const root = elements[0];
  if (root?.local !== "svg" || root.uri !== SVG_NAMESPACE) {
    return { ok: false, reason: "root element is not <svg> in the SVG namespace" };
  }
  return { ok: true, elements, root };
}
