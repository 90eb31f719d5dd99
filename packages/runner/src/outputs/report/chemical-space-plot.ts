import { scaleLinear } from "d3-scale";
import { LINK_LIMIT } from "./boiled-egg-plot.ts";
import { escapeHtml, formatNumber } from "./format.ts";
import { projectPca } from "./pca.ts";
import { domainOf, openSvg, type PlotBox, renderAxes } from "./svg-axes.ts";

export interface SpacePoint {
  readonly id: string;
  readonly href: string | null;
  /** The descriptor vector, in SPACE_DESCRIPTORS order. */
  readonly vector: readonly number[];
}

export const SPACE_DESCRIPTORS = [
  "MW",
  "WLOGP",
  "TPSA",
  "HBD",
  "HBA",
  "rotatable bonds",
  "aromatic rings",
  "Fsp3",
];

const BOX: PlotBox = { width: 640, height: 420, left: 52, right: 16, top: 16, bottom: 40 };

/** Chemical-space map: the first two principal components of the standardized descriptors. */
export function renderChemicalSpace(points: readonly SpacePoint[]): string {
  if (points.length < 3)
    return `<figure id="plot-chemical-space" class="missing-plot"><figcaption>Chemical-space map: needs at least 3 compounds with descriptors (${points.length} here).</figcaption></figure>`;
  const pca = projectPca(points.map((p) => p.vector));
  const x = scaleLinear()
    .domain(
      domainOf(
        pca.scores.map((s) => s[0]),
        0,
        0,
      ),
    )
    .range([BOX.left, BOX.width - BOX.right])
    .nice();
  const y = scaleLinear()
    .domain(
      domainOf(
        pca.scores.map((s) => s[1]),
        0,
        0,
      ),
    )
    .range([BOX.height - BOX.bottom, BOX.top])
    .nice();
  const linked = points.length <= LINK_LIMIT;
  const marks = points
    .map((p, at) => {
      const [pc1, pc2] = pca.scores[at] ?? [0, 0];
      const dot = `<circle class="mark" data-id="${escapeHtml(p.id)}" cx="${x(pc1).toFixed(1)}" cy="${y(pc2).toFixed(1)}" r="3"><title>${escapeHtml(`${p.id}: PC1 ${formatNumber(pc1)}, PC2 ${formatNumber(pc2)}`)}</title></circle>`;
      return p.href && linked ? `<a href="${escapeHtml(p.href)}">${dot}</a>` : dot;
    })
    .join("");
  const loading = (component: readonly number[]) =>
    component
      .map((value, at) => ({ name: SPACE_DESCRIPTORS[at] ?? "", value }))
      .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
      .slice(0, 3)
      .map((entry) => `${entry.name} ${formatNumber(entry.value)}`)
      .join(", ");
  const pct = (share: number) => `${Math.round(share * 100)}%`;
  return `<figure id="plot-chemical-space">${openSvg(BOX, "Chemical-space map (PCA of descriptors)", "space")}${renderAxes(BOX, x, y, `PC1 (${pct(pca.explained[0])} of variance)`, `PC2 (${pct(pca.explained[1])})`)}<g class="marks">${marks}</g></svg>
<figcaption>Chemical-space map of ${points.length} compounds: principal component analysis of ${SPACE_DESCRIPTORS.length} standardized RDKit descriptors (${SPACE_DESCRIPTORS.join(", ")}), computed here deterministically. Largest loadings — PC1: ${escapeHtml(loading(pca.loadings[0]))}; PC2: ${escapeHtml(loading(pca.loadings[1]))}. Nearby points have similar properties, not necessarily similar scaffolds.</figcaption></figure>`;
}
