// BOILED-Egg (Daina & Zoete 2016, ChemMedChem 11:1117, doi:10.1002/cmdc.201600182): two ellipses
// in the (TPSA, WLOGP) plane. The white is the 99% region of high passive gastrointestinal
// absorption (HIA), the yolk that of blood–brain barrier permeation (BBB). The paper's Supporting
// Information gives each boundary as a polygon of points; the centre, semi-axes and axis direction
// below are the least-squares ellipse through those points, fitted here (boiled-egg-ellipses.test.ts
// checks boundary points of the Supporting Information that were not used in the fit).

export interface EggEllipse {
  readonly name: "HIA (white)" | "BBB (yolk)";
  /** Centre as (TPSA Å², WLOGP). */
  readonly centre: readonly [number, number];
  /** Semi-axis lengths, in the data units along each direction. */
  readonly semiAxes: readonly [number, number];
  /** Unit direction of the first semi-axis in (TPSA, WLOGP) units; the second is perpendicular. */
  readonly direction: readonly [number, number];
}

export const EGG_CITATION =
  "Daina A, Zoete V. A BOILED-Egg to predict gastrointestinal absorption and brain penetration of small molecules. ChemMedChem 2016;11:1117–1121";

export const HIA_ELLIPSE: EggEllipse = {
  name: "HIA (white)",
  centre: [71.0274, 2.2945],
  semiAxes: [71.0178, 4.3559],
  direction: [0.999834, -0.01824],
};

export const BBB_ELLIPSE: EggEllipse = {
  name: "BBB (yolk)",
  centre: [38.0686, 3.1849],
  semiAxes: [41.0318, 2.7776],
  direction: [0.999996, -0.002767],
};

/** The ellipse's quadratic form at a point: below 1 inside, 1 on the boundary. */
export function ellipseLevel(ellipse: EggEllipse, tpsa: number, wlogp: number): number {
  const dx = tpsa - ellipse.centre[0];
  const dy = wlogp - ellipse.centre[1];
  const [ux, uy] = unit(ellipse.direction);
  const along = dx * ux + dy * uy;
  const across = -dx * uy + dy * ux;
  return (along / ellipse.semiAxes[0]) ** 2 + (across / ellipse.semiAxes[1]) ** 2;
}

/** Boundary points for drawing, `count` of them, in (TPSA, WLOGP). */
export function ellipseOutline(ellipse: EggEllipse, count = 96): Array<[number, number]> {
  const [ux, uy] = unit(ellipse.direction);
  const [a, b] = ellipse.semiAxes;
  const points: Array<[number, number]> = [];
  for (let at = 0; at <= count; at++) {
    const t = (2 * Math.PI * at) / count;
    const along = a * Math.cos(t);
    const across = b * Math.sin(t);
    points.push([ellipse.centre[0] + along * ux - across * uy, ellipse.centre[1] + along * uy + across * ux]);
  }
  return points;
}

function unit([x, y]: readonly [number, number]): [number, number] {
  const length = Math.hypot(x, y);
  return [x / length, y / length];
}
