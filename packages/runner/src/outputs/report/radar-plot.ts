import { scaleLinear } from "d3-scale";
import { curveLinearClosed as closed, lineRadial } from "d3-shape";
import { RADAR_AXES, RADAR_RANGES, type RadarValue } from "./compound-view.ts";
import { escapeHtml, formatNumber } from "./format.ts";

const SIZE = 230;
const RADIUS = 62;

/**
 * SwissADME's bioavailability radar (Daina, Michielin & Zoete 2017, Sci Rep 7:42717): six axes,
 * the pink band the range suited to oral bioavailability. Each axis spans the band's width on
 * either side of it, so a value inside the band sits in the pink; an axis without a value is
 * drawn dashed and named "n/a", never placed at zero.
 */
export function renderRadar(
  id: string,
  radar: Readonly<Record<(typeof RADAR_AXES)[number], RadarValue>>,
): string {
  const r = scaleLinear().domain([0, 1]).range([0, RADIUS]).clamp(true);
  const angle = (at: number) => (at * 2 * Math.PI) / RADAR_AXES.length;
  // 0..1 along each axis: the band [low, high] maps to [1/3, 2/3].
  const position = (axis: (typeof RADAR_AXES)[number], value: number) => {
    const { low, high } = RADAR_RANGES[axis];
    return (value - (low - (high - low))) / (3 * (high - low));
  };
  const band = (level: number) =>
    lineRadial<number>()
      .angle((at) => angle(at))
      .radius(() => r(level))
      .digits(1)
      .curve(closed)([0, 1, 2, 3, 4, 5]);
  const points = RADAR_AXES.map((axis, at) => {
    const value = radar[axis].value;
    return value === null ? null : ([angle(at), r(position(axis, value))] as const);
  });
  const known = points.filter((p): p is readonly [number, number] => p !== null);
  const polygon =
    known.length === RADAR_AXES.length
      ? `<path class="radar-value mark" data-id="${escapeHtml(id)}" d="${lineRadial<
          readonly [number, number]
        >()
          .angle((p) => p[0])
          .radius((p) => p[1])
          .digits(1)
          .curve(closed)(known)}"/>`
      : `<g class="mark" data-id="${escapeHtml(id)}">${known
          .map(
            ([a, rad]) =>
              `<circle class="radar-dot" cx="${(Math.sin(a) * rad).toFixed(1)}" cy="${(-Math.cos(a) * rad).toFixed(1)}" r="3"/>`,
          )
          .join("")}</g>`;
  const axes = RADAR_AXES.map((axis, at) => {
    const a = angle(at);
    const ex = (Math.sin(a) * RADIUS).toFixed(1);
    const ey = (-Math.cos(a) * RADIUS).toFixed(1);
    const lx = (Math.sin(a) * (RADIUS + 16)).toFixed(1);
    const ly = (-Math.cos(a) * (RADIUS + 16)).toFixed(1);
    const value = radar[axis];
    const text = `${RADAR_RANGES[axis].label.split(" ")[0]} ${value.value === null ? "n/a" : formatNumber(value.value)}`;
    return `<line class="${value.value === null ? "radar-axis missing-axis" : "radar-axis"}" x1="0" y1="0" x2="${ex}" y2="${ey}"/><text x="${lx}" y="${ly}" text-anchor="middle" dy="0.32em">${escapeHtml(text)}</text>`;
  }).join("");
  const title = `Bioavailability radar of ${id}`;
  return `<svg class="plot radar" viewBox="${-SIZE / 2} ${-SIZE / 2} ${SIZE} ${SIZE}" role="img" aria-label="${escapeHtml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>
<path class="radar-band" d="${band(2 / 3)}${band(1 / 3)}" fill-rule="evenodd"/>${axes}${polygon}</svg>`;
}
