import type { Vec3 } from "./vec3.ts";

/**
 * One cavity ConCavity extracted: the grid points above its own threshold that form one connected
 * component (Capra et al., PLoS Comput Biol 2009, 5, e1000585, "pocket extraction").
 */
export interface ConcavityCavity {
  /** ConCavity's 0-based pocket number (its order of finding, not a rank). */
  readonly index: number;
  readonly points: readonly Vec3[];
  /** The grid score of each point (the blurred Ligsite buriedness), in point order. */
  readonly values: readonly number[];
}

export type ConcavityPockets =
  | { readonly ok: true; readonly cavities: readonly ConcavityCavity[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads `<name>_<output>_pocket.pdb`, the file `-print_grid_pdb 1` writes: one HETATM record per
 * pocket grid point, residue name POC, the pocket number in the residue-number columns (23–26), the
 * coordinates in the usual columns (31–54) and the grid value as the occupancy (55–60), the layout
 * ConCavity 0.1's README describes ("pocket number data to -print_pdb_grid output", 11/05/10). An
 * empty file is no cavity; a record that is not a number where one belongs is a reason, not a guess.
 */
export function parseConcavityPockets(text: string): ConcavityPockets {
  const byIndex = new Map<number, { points: Vec3[]; values: number[] }>();
  const lines = text.split("\n");
  for (const [at, line] of lines.entries()) {
    if (!line.startsWith("HETATM")) continue;
    const index = Number(line.slice(22, 26));
    const point: Vec3 = [Number(line.slice(30, 38)), Number(line.slice(38, 46)), Number(line.slice(46, 54))];
    const value = Number(line.slice(54, 60));
    if (
      line.slice(17, 20) !== "POC" ||
      line.slice(22, 26).trim() === "" ||
      !Number.isInteger(index) ||
      !point.every(Number.isFinite) ||
      !Number.isFinite(value)
    )
      return {
        ok: false,
        reason: `concavity's pocket file, line ${at + 1}: not a pocket grid point: ${line.trim()}`,
      };
    let cavity = byIndex.get(index);
    if (cavity === undefined) {
      cavity = { points: [], values: [] };
      byIndex.set(index, cavity);
    }
    cavity.points.push(point);
    cavity.values.push(value);
  }
  const cavities = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, cavity]) => ({ index, points: cavity.points, values: cavity.values }));
  return { ok: true, cavities };
}

/**
 * The grid spacing (Å) of the `.dx` file ConCavity writes beside the pocket file (OpenDX
 * `delta` lines; its grid is cubic): a pocket's volume is its point count times the spacing cubed.
 * Null when the header has no positive diagonal delta.
 */
export function concavityGridSpacing(dxHeader: string): number | null {
  const match = /^delta\s+(\S+)\s+0\s+0\s*$/m.exec(dxHeader);
  const spacing = match === null ? Number.NaN : Number(match[1]);
  return Number.isFinite(spacing) && spacing > 0 ? spacing : null;
}
