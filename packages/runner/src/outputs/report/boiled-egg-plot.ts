import { BOILED_EGG, BOILED_EGG_CITATION, ellipseOutline } from "@svc/science/admet";
import { scaleLinear } from "d3-scale";
import { line } from "d3-shape";
import { escapeHtml, formatNumber } from "./format.ts";
import { domainOf, openSvg, type PlotBox, renderAxes } from "./svg-axes.ts";

export interface EggPoint {
  readonly id: string;
  readonly tpsa: number;
  readonly wlogp: number;
  /** Link target of the compound's card, when it has one. */
  readonly href: string | null;
}

const BOX: PlotBox = { width: 640, height: 440, left: 52, right: 16, top: 16, bottom: 40 };
const LABEL_LIMIT = 60;
/** Above this many points the marks are not links: each link is an annotation in the PDF. */
export const LINK_LIMIT = 500;

/**
 * The BOILED-Egg: TPSA on x, WLOGP on y (as in the paper's Figure), the white (HIA) and the yolk
 * (BBB) drawn from their published ellipses, one point per compound with its id as title and,
 * for small portfolios, as a label.
 */
export function renderBoiledEgg(points: readonly EggPoint[]): string {
  const x = scaleLinear()
    .domain(
      domainOf(
        points.map((p) => p.tpsa),
        -10,
        200,
      ),
    )
    .range([BOX.left, BOX.width - BOX.right])
    .nice();
  const y = scaleLinear()
    .domain(
      domainOf(
        points.map((p) => p.wlogp),
        -4,
        8,
      ),
    )
    .range([BOX.height - BOX.bottom, BOX.top])
    .nice();
  const path = line<[number, number]>()
    .x(([tpsa]) => x(tpsa))
    .y(([, wlogp]) => y(wlogp))
    .digits(1);
  const labels = points.length <= LABEL_LIMIT;
  const linked = points.length <= LINK_LIMIT;
  const marks = points
    .map((p) => {
      const title = `${p.id}: TPSA (N, O, S, P) ${formatNumber(p.tpsa)} Å², WLOGP ${formatNumber(p.wlogp)}`;
      const cx = x(p.tpsa).toFixed(1);
      const cy = y(p.wlogp).toFixed(1);
      const dot = `<circle class="mark" data-id="${escapeHtml(p.id)}" cx="${cx}" cy="${cy}" r="3.5"><title>${escapeHtml(title)}</title></circle>`;
      const label = labels
        ? `<text class="point-label" x="${cx}" y="${cy}" dx="5" dy="-4">${escapeHtml(p.id)}</text>`
        : "";
      return p.href && linked ? `<a href="${escapeHtml(p.href)}">${dot}${label}</a>` : dot + label;
    })
    .join("");
  return `<figure id="plot-boiled-egg">${openSvg(BOX, "BOILED-Egg: WLOGP against TPSA", "boiled-egg")}
<rect class="egg-bg" x="${BOX.left}" y="${BOX.top}" width="${BOX.width - BOX.left - BOX.right}" height="${BOX.height - BOX.top - BOX.bottom}"/>
<path class="egg-white" d="${path(ellipseOutline(BOILED_EGG.white))}"/><path class="egg-yolk" d="${path(ellipseOutline(BOILED_EGG.yolk))}"/>
${renderAxes(BOX, x, y, "TPSA with S and P (Å²)", "WLOGP")}<g class="marks">${marks}</g></svg>
<figcaption>BOILED-Egg, ${points.length} compounds. White: high passive gastrointestinal absorption; yolk: blood–brain barrier permeation (${escapeHtml(BOILED_EGG_CITATION)}; ellipses fitted here to the paper's published boundary). WLOGP is RDKit's Wildman–Crippen logP; TPSA is Ertl's with polar S and P, as the paper fitted it (the N,O-only TPSA shown elsewhere is the one Veber and Egan use). P-gp substrate status, shown in blue/red by SwissADME, is not computed here.</figcaption></figure>`;
}
