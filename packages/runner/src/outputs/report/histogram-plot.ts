import { scaleLinear } from "d3-scale";
import { escapeHtml, formatNumber } from "./format.ts";
import { openSvg, type PlotBox, renderAxes } from "./svg-axes.ts";

/**
 * A fixed-bin histogram filled one value at a time, so the distribution covers every compound of
 * any portfolio in constant memory. Values outside [low, high] land in the edge bins, which say so.
 */
export class StreamingHistogram {
  readonly label: string;
  readonly low: number;
  readonly high: number;
  readonly counts: number[];
  count = 0;
  below = 0;
  above = 0;

  constructor(label: string, low: number, high: number, bins: number) {
    this.label = label;
    this.low = low;
    this.high = high;
    this.counts = new Array<number>(bins).fill(0);
  }

  add(value: number | null): void {
    if (value === null || !Number.isFinite(value)) return;
    this.count++;
    if (value < this.low) this.below++;
    if (value > this.high) this.above++;
    const bins = this.counts.length;
    const at = Math.floor(((value - this.low) / (this.high - this.low)) * bins);
    const bin = Math.min(bins - 1, Math.max(0, at));
    this.counts[bin] = (this.counts[bin] ?? 0) + 1;
  }
}

const BOX: PlotBox = { width: 300, height: 190, left: 40, right: 10, top: 10, bottom: 34 };

/** One small histogram; when no compound has the value, the module's reason instead. */
export function renderHistogram(histogram: StreamingHistogram, missingReason: string | null): string {
  if (histogram.count === 0)
    return `<figure class="histogram missing-plot" data-quantity="${escapeHtml(histogram.label)}"><figcaption><b>${escapeHtml(histogram.label)}</b>: not available in this build — ${escapeHtml(missingReason ?? "no compound has a value")}</figcaption></figure>`;
  const x = scaleLinear()
    .domain([histogram.low, histogram.high])
    .range([BOX.left, BOX.width - BOX.right]);
  const max = Math.max(1, ...histogram.counts);
  const y = scaleLinear()
    .domain([0, max])
    .range([BOX.height - BOX.bottom, BOX.top])
    .nice();
  const width = (histogram.high - histogram.low) / histogram.counts.length;
  const bars = histogram.counts
    .map((count, at) => {
      const from = histogram.low + at * width;
      const x0 = x(from);
      const x1 = x(from + width);
      return `<rect class="bar" x="${x0.toFixed(1)}" y="${y(count).toFixed(1)}" width="${Math.max(0, x1 - x0 - 1).toFixed(1)}" height="${(y(0) - y(count)).toFixed(1)}"><title>${formatNumber(from)}–${formatNumber(from + width)}: ${count}</title></rect>`;
    })
    .join("");
  const edges =
    histogram.below + histogram.above > 0
      ? ` (${histogram.below} below ${histogram.low} and ${histogram.above} above ${histogram.high} counted in the edge bins)`
      : "";
  return `<figure class="histogram" data-quantity="${escapeHtml(histogram.label)}" data-count="${histogram.count}">${openSvg(BOX, `Distribution of ${histogram.label}`, "hist")}${bars}${renderAxes(BOX, x, y, histogram.label, "compounds", 5)}</svg><figcaption>${escapeHtml(histogram.label)}: ${histogram.count} compounds${escapeHtml(edges)}</figcaption></figure>`;
}
