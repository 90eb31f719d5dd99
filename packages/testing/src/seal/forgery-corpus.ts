import { canonicalBytes, SEAL_SVG_CAPS, type SealReasonCode } from "@svc/core";

/** One hostile variant of a genuine seal and the reason code every verifier must give it. */
export interface SealForgery {
  readonly name: string;
  /** The attack class of issue 9 it belongs to. */
  readonly family:
    | "picture swap"
    | "visible facts"
    | "active content"
    | "hidden or cropped channel"
    | "second payload"
    | "structure";
  readonly svg: string;
  readonly code: SealReasonCode;
}

export interface ForgeryCorpusInput {
  /** A freshly issued, genuine seal.svg: every forgery is built from it. */
  readonly genuine: string;
  /**
   * Another freshly issued seal.svg (the attacker's own, e.g. with their verify_url): its picture
   * is the look-alike drawn in swap attacks, its payload the decoy in second-payload attacks.
   */
  readonly decoy: string;
}

const NOT_CANONICAL: SealReasonCode = "IMAGE_NOT_CANONICAL";

/**
 * Builds the forgery corpus of issue 9 (every class the issue lists) and issue 23 (item 1's number
 * respellings, item 11's markup that was costly to verify), 89 files, from a fresh genuine seal,
 * so it can never drift from what the renderer issues. Shared by the verifier's, the CLI's and
 * the service's tests: each must answer INVALID with {@link SealForgery.code}.
 */
export function buildForgeryCorpus(input: ForgeryCorpusInput): SealForgery[] {
  const seal = splitSeal(input.genuine);
  const decoy = splitSeal(input.decoy);
  const forged: SealForgery[] = [];
  const add = (family: SealForgery["family"], name: string, svg: string, code = NOT_CANONICAL) => {
    if (svg === input.genuine) throw new Error(`forgery "${name}" did not change the seal`);
    forged.push({ name, family, svg, code });
  };
  const withBody = (body: string) => `${seal.head}${body}${seal.tail}`;
  const replaceOnce = (
    from: string | RegExp,
    to: string | ((match: string, ...groups: string[]) => string),
  ) => {
    const out = input.genuine.replace(from, to as string);
    if (out === input.genuine) throw new Error(`corpus: ${String(from)} not found in the seal`);
    return out;
  };
  const label = (prefix: string) => {
    const match = new RegExp(`(<text [^>]*>)(${escapeRegExp(prefix)}[^<]*)(</text>)`).exec(input.genuine);
    if (!match) throw new Error(`corpus: no label starting ${prefix}`);
    return { element: match[0], open: match[1] as string, text: match[2] as string };
  };
  const editLabel = (prefix: string, edit: (text: string) => string) => {
    const { element, open, text } = label(prefix);
    return replaceOnce(element, `${open}${edit(text)}</text>`);
  };
  const rootAttribute = (attribute: string) => replaceOnce(/<svg /, `<svg ${attribute} `);
  const onQr = (attribute: string) => replaceOnce('<path fill="#000" ', `<path fill="#000" ${attribute} `);
  const onRing = (attribute: string) => replaceOnce(/<g fill="([^"]+)">/, `<g fill="$1" ${attribute}>`);
  const fakeOver = decoy.body;

  // Picture swap: the genuine shapes stay where a naive verifier reads them, hidden from renderers.
  add(
    "picture swap",
    "switch branch that never renders",
    withBody(`<switch><g requiredExtensions="urn:never">${seal.body}</g><g>${fakeOver}</g></switch>\n`),
  );
  add(
    "picture swap",
    "genuine shapes inside a foreign-namespace element",
    withBody(`<x:hidden xmlns:x="urn:attacker">${seal.body}</x:hidden>\n${fakeOver}`),
  );
  add(
    "picture swap",
    "CSS-hidden group",
    withBody(`<style>.h{display:none}</style><g class="h">${seal.body}</g>\n${fakeOver}`),
  );
  add(
    "picture swap",
    "0×0 nested svg",
    withBody(`<svg width="0" height="0">${seal.body}</svg>\n${fakeOver}`),
  );
  add("picture swap", "display=none group", withBody(`<g display="none">${seal.body}</g>\n${fakeOver}`));
  add(
    "picture swap",
    "visibility=hidden group",
    withBody(`<g visibility="hidden">${seal.body}</g>\n${fakeOver}`),
  );
  add("picture swap", "genuine in defs", withBody(`<defs>${seal.body}</defs>\n${fakeOver}`));
  add(
    "picture swap",
    "genuine in a symbol, decoy used",
    withBody(`<symbol id="s">${seal.body}</symbol>\n${fakeOver}`),
  );
  add(
    "picture swap",
    "genuine moved off the canvas",
    withBody(`<g transform="translate(10000 0)">${seal.body}</g>\n${fakeOver}`),
  );
  add("picture swap", "decoy drawn over the genuine picture", withBody(`${seal.body}${fakeOver}`));
  add(
    "picture swap",
    "decoy QR drawn over the genuine QR",
    replaceOnce(/(<path fill="#000" d="[^"]*"\/>)/, `$1\n${decoy.qr}`),
  );
  add(
    "picture swap",
    "genuine picture as a data: image, decoy on top",
    withBody(
      `<image width="480" height="480" href="data:image/svg+xml;base64,${Buffer.from(input.genuine).toString("base64")}"/>${fakeOver}`,
    ),
  );
  add(
    "picture swap",
    "decoy drawn through use, genuine removed",
    withBody(`<defs><g id="q">${fakeOver}</g></defs><use href="#q"/>`),
  );
  add(
    "picture swap",
    "whole seal inside a nested svg with a shifted viewBox",
    withBody(`<svg viewBox="40 40 480 480">${seal.body}</svg>\n`),
  );
  add("picture swap", "switch around the genuine body", withBody(`<switch>${seal.body}</switch>\n`));
  add("picture swap", "svgo-optimised copy (paths rewritten, metadata stripped)", svgoLike(input.genuine));

  // Visible facts: what a person reads is not what was signed.
  add(
    "visible facts",
    "edited run label",
    editLabel("run ", () => "run run_20991231T000000Z"),
  );
  add(
    "visible facts",
    "edited project label",
    editLabel("project ", (t) => t.replace(/project \S+/, "project acme-rx")),
  );
  add(
    "visible facts",
    "edited mode label",
    editLabel("project ", (t) => t.replace(/standard|deep/, "deep-proof")),
  );
  add(
    "visible facts",
    "edited issued date",
    editLabel("issued ", () => "issued 2030-01-01T00:00:00Z"),
  );
  add(
    "visible facts",
    "edited short seal id",
    editLabel("seal seal_", () => "seal seal_ffffffffffffff…"),
  );
  add(
    "visible facts",
    "edited heading",
    editLabel("SVC COMPUTATIONAL", () => "SVC PROOF OF EFFICACY SEAL"),
  );
  add(
    "visible facts",
    "edited title",
    replaceOnce(/<title>[^<]*<\/title>/, "<title>Audit seal: PROOF</title>"),
  );
  add(
    "visible facts",
    "white rectangle over a label, new text on top",
    withBody(
      `${seal.body}<rect x="150" y="133" width="180" height="14" fill="#fbf8ef"/><text x="240" y="143" text-anchor="middle" font-size="11">project demo-project · deep</text>\n`,
    ),
  );
  add("visible facts", "CSS hides every label", withBody(`<style>text{display:none}</style>\n${seal.body}`));
  add(
    "visible facts",
    "CSS generated content swaps a label",
    withBody(`<style>text:nth-of-type(3)::after{content:" · deep"}</style>\n${seal.body}`),
  );
  add(
    "visible facts",
    "foreignObject with HTML facts",
    withBody(
      `${seal.body}<foreignObject x="100" y="120" width="280" height="60"><div xmlns="http://www.w3.org/1999/xhtml">mode: deep</div></foreignObject>\n`,
    ),
  );
  add(
    "visible facts",
    "Cyrillic homoglyph in the mode",
    editLabel("project ", (t) => t.replace("standard", "stаndаrd")),
  );
  add(
    "visible facts",
    "Cyrillic homoglyph in the run id",
    editLabel("run ", (t) => t.replace("run_", "run_").replace(/r/g, "г")),
  );
  add(
    "visible facts",
    "U+202E right-to-left override in a label",
    editLabel("project ", (t) => `${t} \u202Epeed`),
  );
  add(
    "visible facts",
    "zero-width space in the run id",
    editLabel("run ", (t) => `${t.slice(0, 8)}\u200B${t.slice(8)}`),
  );
  add(
    "visible facts",
    "label split into a tspan",
    editLabel("run ", (t) => `<tspan>${t}</tspan>`),
  );
  add(
    "visible facts",
    "label shrunk to nothing (font-size 0)",
    replaceOnce(/font-size="11"/, 'font-size="0"'),
  );
  add(
    "visible facts",
    "label anchor moved off-centre",
    replaceOnce(/text-anchor="middle"/, 'text-anchor="start"'),
  );
  add(
    "visible facts",
    "label in another font",
    replaceOnce(/font-family="[^"]*"/, 'font-family="Attacker Glyphs"'),
  );
  add(
    "visible facts",
    "label painted transparent",
    replaceOnce(/(<text [^>]*)fill="#1b2a4a"/, '$1fill="transparent"'),
  );
  add("visible facts", "xml:space preserve on a label", replaceOnce(/<text /, '<text xml:space="preserve" '));
  // Number respelling (issue 23 item 1): a reader that parses `126.` as 126 sees the genuine seal,
  // Chromium rejects `126.` and draws the labels at y=0 (off the canvas) and the paths not at all.
  add(
    "visible facts",
    "every number respelled with a trailing dot (126 -> 126.)",
    respellNumbers(input.genuine),
  );
  add(
    "visible facts",
    "label y respelled with a trailing dot",
    replaceOnce(/(<text [^>]*)y="(\d+)"/, '$1y="$2."'),
  );
  add("visible facts", "label y padded with spaces", replaceOnce(/(<text [^>]*)y="(\d+)"/, '$1y=" $2 "'));
  add(
    "visible facts",
    "font-size respelled with a trailing dot",
    replaceOnce(/font-size="11"/, 'font-size="11."'),
  );
  add("visible facts", "label x respelled 240.0", replaceOnce(/(<text )x="(\d+)"/, '$1x="$2.0"'));

  // Active content: nothing in a seal may run, link or fetch.
  add("active content", "script element", withBody(`<script>alert(document.domain)</script>\n${seal.body}`));
  add("active content", "onload on the root", rootAttribute('onload="alert(1)"'));
  add("active content", "onclick on the QR", onQr('onclick="location=`https://attacker.example`"'));
  add(
    "active content",
    "javascript: link around the seal",
    withBody(`<a href="javascript:alert(1)">${seal.body}</a>\n`),
  );
  add(
    "active content",
    "link to another site around the seal",
    withBody(`<a href="https://attacker.example/verify">${seal.body}</a>\n`),
  );
  add(
    "active content",
    "xlink:href javascript link",
    withBody(
      `<a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="javascript:alert(1)">${seal.body}</a>\n`,
    ),
  );
  add(
    "active content",
    "external image",
    withBody(`${seal.body}<image href="https://attacker.example/pixel.png" width="1" height="1"/>\n`),
  );
  add(
    "active content",
    "CSS @import",
    withBody(`<style>@import url(https://attacker.example/x.css);</style>\n${seal.body}`),
  );
  add(
    "active content",
    "xml-stylesheet processing instruction",
    input.genuine.replace(/\n/, '\n<?xml-stylesheet href="https://attacker.example/x.css"?>\n'),
  );
  add(
    "active content",
    "iframe in a foreignObject",
    withBody(
      `${seal.body}<foreignObject width="1" height="1"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://attacker.example/"/></foreignObject>\n`,
    ),
  );
  add(
    "active content",
    "SMIL set changes the QR colour",
    replaceOnce(
      /(<path fill="#000" d="[^"]*")\/>/,
      '$1><set attributeName="fill" to="#fff" begin="0s"/></path>',
    ),
  );

  // Hidden or cropped channels.
  add("hidden or cropped channel", "opacity 0.0 on the QR", onQr('opacity="0.0"'));
  add("hidden or cropped channel", "fill-opacity 0 on the QR", onQr('fill-opacity="0"'));
  add(
    "hidden or cropped channel",
    "QR painted transparent",
    replaceOnce('<path fill="#000"', '<path fill="transparent"'),
  );
  add("hidden or cropped channel", "opacity 0 on the ring", onRing('opacity="0"'));
  add(
    "hidden or cropped channel",
    "clip-path crops the QR to nothing",
    withBody(
      `<clipPath id="c"><rect width="1" height="1"/></clipPath>\n${seal.body.replace('<path fill="#000" ', '<path fill="#000" clip-path="url(#c)" ')}`,
    ),
  );
  add(
    "hidden or cropped channel",
    "mask hides the ring",
    withBody(
      `<mask id="m"><rect width="480" height="480" fill="#000"/></mask>\n${seal.body.replace(/<g fill="([^"]+)">/, '<g fill="$1" mask="url(#m)">')}`,
    ),
  );
  add(
    "hidden or cropped channel",
    "animation fades the QR out",
    replaceOnce(
      /(<path fill="#000" d="[^"]*")\/>/,
      '$1><animate attributeName="opacity" from="1" to="0" dur="0.1s" fill="freeze"/></path>',
    ),
  );
  add(
    "hidden or cropped channel",
    "cropped viewBox",
    replaceOnce(/viewBox="[^"]*"/, 'viewBox="0 0 100 100"'),
  );
  add(
    "hidden or cropped channel",
    "width and height 1",
    replaceOnce(/width="480" height="480"/, 'width="1" height="1"'),
  );
  add("hidden or cropped channel", "white stroke over the QR", onQr('stroke="#fff" stroke-width="4"'));
  add(
    "hidden or cropped channel",
    "blur filter on the QR",
    withBody(
      `<filter id="b"><feGaussianBlur stdDeviation="9"/></filter>\n${seal.body.replace('<path fill="#000" ', '<path fill="#000" filter="url(#b)" ')}`,
    ),
  );
  add("hidden or cropped channel", "QR scaled to zero", onQr('transform="scale(0)"'));
  add("hidden or cropped channel", "style display:none on the QR", onQr('style="display:none"'));
  add(
    "hidden or cropped channel",
    "white QR background turned black",
    replaceOnce(/(<rect [^>]*)fill="#fff"/, '$1fill="#000"'),
  );
  add(
    "hidden or cropped channel",
    "QR path data respelled with trailing dots (M178. 188.)",
    replaceOnce(/(<path fill="#000" d=")([^"]*)"/, (_, open: string, d: string) => `${open}${respell(d)}"`),
  );
  add(
    "hidden or cropped channel",
    "ring paths respelled with trailing dots",
    input.genuine.replace(/(<path d=")([^"]*)"/g, (_, open: string, d: string) => `${open}${respell(d)}"`),
  );
  add(
    "hidden or cropped channel",
    "QR background padded with spaces",
    replaceOnce(/(<rect )x="(\d+)" y="(\d+)"/, '$1x=" $2 " y=" $3 "'),
  );
  add(
    "hidden or cropped channel",
    "viewBox respelled with commas",
    replaceOnce(/viewBox="0 0 (\d+) (\d+)"/, 'viewBox="0,0,$1,$2"'),
  );

  // Second payload: other XML readers must not find a decoy in a VERIFIED file.
  add(
    "second payload",
    "second metadata with a decoy seal",
    replaceOnce("</metadata>", `</metadata>\n${decoy.metadata}`),
    "SEAL_NOT_UNIQUE",
  );
  add(
    "second payload",
    "decoy under a rebound svcseal prefix",
    replaceOnce(
      "</metadata>",
      `</metadata>\n${decoy.metadata.replace("<metadata>", '<metadata xmlns:svcseal="urn:attacker">')}`,
    ),
  );
  add("second payload", "seal namespace under another prefix", renamePrefix(input.genuine));
  add(
    "second payload",
    "second desc with a decoy token",
    replaceOnce("</desc>", `</desc>\n${decoy.desc}`),
    "SEAL_NOT_UNIQUE",
  );
  add(
    "second payload",
    "comment inside the payload",
    replaceOnce(/(<svcseal:payload[^>]*>)(.{20})/, "$1$2<!-- decoy -->"),
  );
  add(
    "second payload",
    "payload in a CDATA section",
    replaceOnce(/(<svcseal:payload[^>]*>)([^<]*)/, "$1<![CDATA[$2]]>"),
  );
  add(
    "second payload",
    "extra attribute on the seal element",
    replaceOnce("<svcseal:seal ", `<svcseal:seal decoy="${decoyPayload(input.genuine)}" `),
  );
  add(
    "second payload",
    "comment after the root",
    `${input.genuine}<!-- svc.seal/v1;payload=${decoyPayload(input.genuine)} -->\n`,
  );

  // Structure: refused by the caps, before any decoding.
  add(
    "structure",
    "1 MiB of subpaths over the QR area",
    withBody(
      `${seal.body}<path d="${"M170 180h1v1h-1Z".repeat(Math.floor((1024 * 1024 - input.genuine.length - 64) / 16))}"/>\n`,
    ),
    "SVG_TOO_COMPLEX",
  );
  add(
    "structure",
    "50,000 subpaths in 200 KB",
    withBody(`${seal.body}<path d="${"M1 1".repeat(50_000)}"/>\n`),
    "SVG_TOO_COMPLEX",
  );
  add("structure", "element flood", withBody(`${seal.body}${"<g/>".repeat(5000)}\n`), "SVG_TOO_COMPLEX");
  add(
    "structure",
    "deep nesting",
    withBody(`${"<g>".repeat(40)}${seal.body}${"</g>".repeat(40)}\n`),
    "SVG_TOO_COMPLEX",
  );
  // Within the byte and element caps, but each node used to walk its element's siblings (issue 23
  // item 11): refused by the markup cap, at about a genuine seal's cost (bench/seal-verify.bench.ts).
  const siblings = SEAL_SVG_CAPS.maxElements - (input.genuine.match(/<[A-Za-z]/g) ?? []).length - 2;
  const fill = (unit: string) =>
    unit.repeat(
      Math.floor((SEAL_SVG_CAPS.maxBytes - input.genuine.length - 4 * siblings - 32) / unit.length),
    );
  for (const [what, unit] of [
    ["processing instructions", "<?a?>"],
    ["comments", "<!---->"],
  ] as const) {
    add(
      "structure",
      `256 KiB of ${what} under an element with ${siblings} siblings`,
      withBody(`${seal.body}<g>${"<g/>".repeat(siblings)}<g>${fill(unit)}</g></g>\n`),
      "SVG_TOO_COMPLEX",
    );
  }
  add(
    "structure",
    "25,000 attributes spread over 800 elements",
    withBody(
      `${seal.body}${`<g ${Array.from({ length: 32 }, (_, i) => `a${i}=""`).join(" ")}/>`.repeat(800)}\n`,
    ),
    "SVG_TOO_COMPLEX",
  );
  add("structure", "XML 1.1 declared", replaceOnce('version="1.0"', 'version="1.1"'));
  add("structure", "Latin-1 encoding declared", replaceOnce('encoding="UTF-8"', 'encoding="ISO-8859-1"'));
  add(
    "structure",
    "internal DOCTYPE subset",
    replaceOnce("\n<svg ", '\n<!DOCTYPE svg [<!ENTITY e "deep">]>\n<svg '),
    "SVG_UNREADABLE",
  );
  return forged;
}

interface SealParts {
  /** XML declaration through `</metadata>\n`. */
  readonly head: string;
  /** Everything drawn: from the first circle to the last label. */
  readonly body: string;
  readonly tail: string;
  readonly metadata: string;
  readonly desc: string;
  readonly qr: string;
}

function splitSeal(svg: string): SealParts {
  const bodyStart = svg.indexOf("</metadata>\n") + "</metadata>\n".length;
  const bodyEnd = svg.lastIndexOf("</svg>");
  const metadata = /<metadata>[\s\S]*?<\/metadata>/.exec(svg)?.[0];
  const desc = /<desc>[^<]*<\/desc>/.exec(svg)?.[0];
  const qr = /<path fill="#000" d="[^"]*"\/>/.exec(svg)?.[0];
  if (bodyStart < 12 || bodyEnd < 0 || !metadata || !desc || !qr) throw new Error("corpus: not a seal");
  return {
    head: svg.slice(0, bodyStart),
    body: svg.slice(bodyStart, bodyEnd),
    tail: svg.slice(bodyEnd),
    metadata,
    desc,
    qr,
  };
}

/** The same seal with the seal namespace bound to `s:` instead of `svcseal:`. */
function renamePrefix(svg: string): string {
  return svg
    .replaceAll("xmlns:svcseal=", "xmlns:s=")
    .replaceAll("<svcseal:", "<s:")
    .replaceAll("</svcseal:", "</s:");
}

/** A payload like the genuine one but for another project, base64url as a seal carries it. */
function decoyPayload(svg: string): string {
  const encoded = /<svcseal:payload[^>]*>([^<]*)</.exec(svg)?.[1] ?? "";
  const payload = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as Record<string, unknown>;
  return canonicalBytes({ ...payload, project_id: "decoy-project" }).toString("base64url");
}

/** What an SVG optimiser does: metadata dropped, numbers shortened, path data merged. */
function svgoLike(svg: string): string {
  return svg
    .replace(/<metadata>[\s\S]*?<\/metadata>\n/, "")
    .replace(/^<\?xml[^>]*>\n/, "")
    .replace(/ role="img"/, "")
    .replace(/h(\d+)v3h-\1Z/g, "h$1v3H$1Z");
}

/** Every number in a value with a trailing dot: `M178 188h21` -> `M178. 188.h21.`. */
function respell(value: string): string {
  return value.replace(/\d+(?![\d.])/g, "$&.");
}

/** Every number of every numeric attribute respelled (issue 23 item 1's forgery). */
function respellNumbers(svg: string): string {
  return svg.replace(
    /( (?:x|y|width|height|cx|cy|r|stroke-width|font-size|d|viewBox)=")([^"]*)"/g,
    (_, open: string, value: string) => `${open}${respell(value)}"`,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
