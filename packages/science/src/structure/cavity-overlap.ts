import type { Vec3 } from "./vec3.ts";

/**
 * The overlap rule of cryptic_pockets (issue 40 item 5): a conformer's cavity is the crystal's
 * (not transient) when at least {@link OVERLAP_FRACTION} of its grid points lie within
 * {@link OVERLAP_RADIUS_ANGSTROM} of a point of any crystal cavity. 2 Å is two of ConCavity's
 * ~1 Å grid steps: the same cavity shifted by a 1 Å Cα RMSD conformer still overlaps; 30 % lets a
 * crystal pocket that grows into a larger one count as the same pocket.
 */
export const OVERLAP_RADIUS_ANGSTROM = 2;
export const OVERLAP_FRACTION = 0.3;
/** A residue lines a cavity when one of its heavy atoms lies within this distance of a cavity point. */
export const LINING_RADIUS_ANGSTROM = 4;
/**
 * A cavity lies at the docking pocket when one of its points lies within this distance of a
 * reference-ligand heavy atom (or inside the docking box): a transient cavity never overlaps a crystal
 * one, so one that opens beside the ligand (a sub-pocket) is the case this flags.
 */
export const POCKET_RADIUS_ANGSTROM = 4;
/**
 * A cavity contains a crystal ligand (the validation) when at least this share of the ligand's heavy
 * atoms lie within {@link OVERLAP_RADIUS_ANGSTROM} of one of its points.
 */
export const LIGAND_CONTAINED_FRACTION = 0.5;

/** Points hashed into cubic cells of the query radius: "is any point within r of p" looks at 27 cells. */
export class PointIndex {
  readonly #cell: number;
  readonly #cells = new Map<string, Vec3[]>();

  constructor(points: readonly Vec3[], radius: number) {
    this.#cell = radius;
    for (const point of points) {
      const key = this.#keyOf(point[0], point[1], point[2]);
      const bucket = this.#cells.get(key);
      if (bucket === undefined) this.#cells.set(key, [point]);
      else bucket.push(point);
    }
  }

  #keyOf(x: number, y: number, z: number): string {
    return `${Math.floor(x / this.#cell)},${Math.floor(y / this.#cell)},${Math.floor(z / this.#cell)}`;
  }

  /** True when a hashed point lies within the index's radius of `point` (distance ≤ radius). */
  anyWithin(point: Vec3): boolean {
    const r2 = this.#cell * this.#cell;
    const [cx, cy, cz] = point.map((value) => Math.floor(value / this.#cell)) as [number, number, number];
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          const bucket = this.#cells.get(`${cx + dx},${cy + dy},${cz + dz}`);
          if (bucket === undefined) continue;
          for (const other of bucket) {
            const d2 = (other[0] - point[0]) ** 2 + (other[1] - point[1]) ** 2 + (other[2] - point[2]) ** 2;
            if (d2 <= r2) return true;
          }
        }
    return false;
  }
}

/** The share (0–1) of `points` within the index's radius of one of its points; 0 for no points. */
export function fractionNear(points: readonly Vec3[], index: PointIndex): number {
  if (points.length === 0) return 0;
  let near = 0;
  for (const point of points) if (index.anyWithin(point)) near++;
  return near / points.length;
}

/**
 * Whether a conformer's cavity is transient by the overlap rule: under {@link OVERLAP_FRACTION} of
 * its points within {@link OVERLAP_RADIUS_ANGSTROM} of the crystal cavities' points (an index built
 * with that radius). Also returns the share, which the result reports.
 */
export function transientOverlap(
  cavity: readonly Vec3[],
  crystalPoints: PointIndex,
): { readonly transient: boolean; readonly overlap: number } {
  const overlap = fractionNear(cavity, crystalPoints);
  return { transient: overlap < OVERLAP_FRACTION, overlap };
}

/**
 * Cavity ranks: by size (grid points), larger first, ties by the summed grid value — ConCavity's own
 * `-cavity_rank_method 1` (by size; Ligsite ranks pockets by size too, Hendlich et al. 1997), taken
 * from the pocket file because that option overwrites the grid values with the ranks. Returns the
 * cavities' positions in rank order.
 */
export function rankBySize(cavities: readonly { readonly values: readonly number[] }[]): number[] {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return cavities
    .map((cavity, at) => ({ at, size: cavity.values.length, total: sum(cavity.values) }))
    .sort((a, b) => b.size - a.size || b.total - a.total || a.at - b.at)
    .map((entry) => entry.at);
}
