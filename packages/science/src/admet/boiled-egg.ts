/**
 * BOILED-Egg (Daina & Zoete, ChemMedChem 2016, 11, 1117): passive gastrointestinal absorption
 * (the white's ellipse) and brain access (the yolk's ellipse) in the plane of TPSA (x, Å²) and
 * WLOGP (y). Each ellipse is the quadratic form (p − c)ᵀ M (p − c) ≤ 1 through the boundary
 * coordinates published in the paper's Supporting Information, recovered by an exact conic fit
 * (residual < 1e-13 over the published points). The one home of these numbers: the runner's report
 * draws the egg from them (boiled-egg.validation.test.ts checks SI points not used in the fit).
 */
export const BOILED_EGG: { readonly white: EggEllipse; readonly yolk: EggEllipse } = {
  white: {
    centre: [71.0274, 2.2945],
    form: [
      [0.00021574256567005422, 0.0009575587741961617],
      [0.0009575587741961617, 0.052687498777253296],
    ],
  },
  yolk: {
    centre: [38.0686, 3.1849],
    form: [
      [0.0005949494300227151, 0.0003569945595838348],
      [0.0003569945595838348, 0.1296116198642602],
    ],
  },
};

export const BOILED_EGG_CITATION =
  "Daina A, Zoete V. A BOILED-Egg to predict gastrointestinal absorption and brain penetration of small molecules. ChemMedChem 2016;11:1117–1121";

/** One egg ellipse: centre (TPSA Å², WLOGP) and the symmetric matrix M of its quadratic form. */
export interface EggEllipse {
  readonly centre: readonly [number, number];
  readonly form: readonly [readonly [number, number], readonly [number, number]];
}

/** The quadratic form (p − c)ᵀ M (p − c) at a point: below 1 inside, 1 on the boundary. */
export function ellipseLevel(ellipse: EggEllipse, tpsa: number, wlogp: number): number {
  const dx = tpsa - ellipse.centre[0];
  const dy = wlogp - ellipse.centre[1];
  const [[a, b], [, c]] = ellipse.form;
  return a * dx * dx + 2 * b * dx * dy + c * dy * dy;
}

/** Whether a (TPSA, WLOGP) point lies inside or on an ellipse. */
export function insideEllipse(ellipse: EggEllipse, tpsa: number, wlogp: number): boolean {
  return ellipseLevel(ellipse, tpsa, wlogp) <= 1;
}

/**
 * `count` + 1 points on the boundary (the first repeated last), for drawing: M's eigenvectors are
 * the axes and 1/√λ the semi-axis lengths (closed form for a symmetric 2×2 matrix).
 */
export function ellipseOutline(ellipse: EggEllipse, count = 96): Array<[number, number]> {
  const [[a, b], [, c]] = ellipse.form;
  const mean = (a + c) / 2;
  const spread = Math.hypot((a - c) / 2, b);
  const [l1, l2] = [mean - spread, mean + spread];
  // Eigenvector of l1; when b is 0 the axes are the coordinate axes.
  const [vx, vy] = b !== 0 ? [b, l1 - a] : a <= c ? [1, 0] : [0, 1];
  const norm = Math.hypot(vx, vy);
  const [ux, uy] = [vx / norm, vy / norm];
  const [r1, r2] = [1 / Math.sqrt(l1), 1 / Math.sqrt(l2)];
  const points: Array<[number, number]> = [];
  for (let at = 0; at <= count; at++) {
    const t = (2 * Math.PI * at) / count;
    const along = r1 * Math.cos(t);
    const across = r2 * Math.sin(t);
    points.push([ellipse.centre[0] + along * ux - across * uy, ellipse.centre[1] + along * uy + across * ux]);
  }
  return points;
}

export interface BoiledEggCall {
  readonly gi_absorption: "high" | "low";
  readonly bbb_permeant: boolean;
  /** yolk: brain access; white: GI absorption only; grey: neither. */
  readonly region: "yolk" | "white" | "grey";
}

/** The BOILED-Egg calls of one molecule from its TPSA and WLOGP. */
export function boiledEgg(tpsa: number, wlogp: number): BoiledEggCall {
  const yolk = insideEllipse(BOILED_EGG.yolk, tpsa, wlogp);
  const white = insideEllipse(BOILED_EGG.white, tpsa, wlogp);
  return {
    gi_absorption: white || yolk ? "high" : "low",
    bbb_permeant: yolk,
    region: yolk ? "yolk" : white ? "white" : "grey",
  };
}
