/**
 * An RDKit SVG made smaller without changing what it draws: the XML prolog, comments, class
 * names and RDKit's namespaces go, each `style` becomes the few presentation attributes that
 * differ from SVG's defaults, and coordinates keep one decimal without a trailing ".0". A
 * depiction shrinks about threefold, so thumbnails for hundreds of rows fit the page's size bound.
 */
export function compactSvg(svg: string): string {
  return svg
    .replace(/^<\?xml[^>]*\?>\s*/, "")
    .replace(/<!--[\s\S]*?-->\s*/g, "")
    .replace(/\s+(?:class|xmlns:rdkit|xmlns:xlink|xml:space|version|baseProfile)='[^']*'/g, "")
    .replace(/ style='([^']*)'/g, (_, style: string) => styleAttributes(style))
    .replace(/(\d)\.0(?=[\s,'"LMQCZ])/g, "$1")
    .replace(/\s*\n\s*/g, "\n")
    .replace(/\s+\/>/g, "/>");
}

const DEFAULTS: Readonly<Record<string, string>> = {
  "fill-rule": "evenodd",
  "stroke-linecap": "butt",
  "stroke-linejoin": "miter",
  "stroke-opacity": "1",
  "fill-opacity": "1",
  opacity: "1",
};
const KEPT = new Set([
  "fill",
  "stroke",
  "stroke-width",
  "fill-rule",
  "opacity",
  "fill-opacity",
  "stroke-opacity",
]);

function styleAttributes(style: string): string {
  const out: string[] = [];
  for (const part of style.split(";")) {
    const colon = part.indexOf(":");
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim();
    let value = part.slice(colon + 1).trim();
    if (!KEPT.has(name) || DEFAULTS[name] === value) continue;
    if (name === "stroke-width") value = value.replace(/px$/, "").replace(/\.0$/, "");
    out.push(` ${name}='${value}'`);
  }
  return out.join("");
}
