import type { Vec3 } from "../vec3.ts";

/** An aromatic (or planar) ring: members sorted by file order, as PLIP orders them for its normal. */
export interface RingFeature {
  readonly atoms: readonly number[];
  readonly center: Vec3;
  readonly normal: Vec3;
}

/** A charged group: the atoms PLIP lists for it, and the point distances are measured from. */
export interface ChargeFeature {
  readonly atoms: readonly number[];
  readonly center: Vec3;
  readonly positive: boolean;
  readonly group: string;
}

export interface DonorPair {
  readonly donor: number;
  readonly hydrogen: number;
}
