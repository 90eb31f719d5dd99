/**
 * BOILED-Egg (Daina & Zoete, ChemMedChem 2016, 11, 1117): passive gastrointestinal absorption
 * (the white's ellipse) and brain access (the yolk's ellipse) in the plane of TPSA (x, Å²) and
 * WLOGP (y). Each ellipse is the quadratic form (p − c)ᵀ M (p − c) ≤ 1 through the boundary
 * coordinates published in the paper's Supporting Information, recovered by an exact conic fit
 * (residual < 1e-13 over the published points).
 */
export const BOILED_EGG = {
  white: {
    centre: [71.0274, 2.2945] as const,
    form: [
      [0.00021574256567005422, 0.0009575587741961617],
      [0.0009575587741961617, 0.052687498777253296],
    ] as const,
  },
  yolk: {
    centre: [38.0686, 3.1849] as const,
    form: [
      [0.0005949494300227151, 0.0003569945595838348],
      [0.0003569945595838348, 0.1296116198642602],
    ] as const,
  },
} as const;

type Ellipse = (typeof BOILED_EGG)["white" | "yolk"];

/** Whether a (TPSA, WLOGP) point lies inside or on an ellipse. */
export function insideEllipse(ellipse: Ellipse, tpsa: number, wlogp: number): boolean {
  const dx = tpsa - ellipse.centre[0];
  const dy = wlogp - ellipse.centre[1];
  const [[a, b], [, c]] = ellipse.form;
  return a * dx * dx + 2 * b * dx * dy + c * dy * dy <= 1;
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
