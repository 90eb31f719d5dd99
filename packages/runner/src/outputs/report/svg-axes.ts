import type { ScaleLinear } from "d3-scale";
import { escapeHtml, formatNumber } from "./format.ts";

export interface PlotBox {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The opening tag of a plot: fixed viewBox, scales with the page, titled for screen readers. */
export function openSvg(box: PlotBox, title: string, className: string): string {
  return `<svg class="plot ${className}" viewBox="0 0 ${box.width} ${box.height}" role="img" aria-label="${escapeHtml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>`;
}

/** x axis at the bottom and y axis at the left, with d3's nice ticks and axis labels. */
export function renderAxes(
  box: PlotBox,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  xLabel: string,
  yLabel: string,
  ticks = 6,
): string {
  const bottom = box.height - box.bottom;
  const parts = [
    `<g class="axis"><line x1="${box.left}" y1="${bottom}" x2="${box.width - box.right}" y2="${bottom}"/>`,
    `<line x1="${box.left}" y1="${box.top}" x2="${box.left}" y2="${bottom}"/>`,
  ];
  for (const tick of x.ticks(ticks)) {
    const at = x(tick).toFixed(1);
    parts.push(
      `<line x1="${at}" y1="${bottom}" x2="${at}" y2="${bottom + 4}"/><text x="${at}" y="${bottom + 15}" text-anchor="middle">${formatNumber(tick, 3)}</text>`,
    );
  }
  for (const tick of y.ticks(Math.max(3, ticks - 1))) {
    const at = y(tick).toFixed(1);
    parts.push(
      `<line x1="${box.left - 4}" y1="${at}" x2="${box.left}" y2="${at}"/><text x="${box.left - 6}" y="${at}" dy="0.32em" text-anchor="end">${formatNumber(tick, 3)}</text>`,
    );
  }
  parts.push(
    `<text class="label" x="${(box.left + box.width - box.right) / 2}" y="${box.height - 4}" text-anchor="middle">${escapeHtml(xLabel)}</text>`,
    `<text class="label" transform="translate(12 ${(box.top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text></g>`,
  );
  return parts.join("");
}

/** [min, max] of the values widened to include [low, high] (a loop: portfolios can be large). */
export function domainOf(values: readonly number[], low: number, high: number): [number, number] {
  let min = low;
  let max = high;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}
