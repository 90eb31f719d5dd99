import { round } from "../numeric/round.ts";
import { StructureError } from "./structure-error.ts";
import type { Vec3 } from "./vec3.ts";

/** A Vina search box: centre and edge lengths in Å. */
export interface PocketBox {
  readonly center: Vec3;
  readonly size: Vec3;
  /** How the box was chosen, written beside every docking result. */
  readonly source: "reference_ligand" | "explicit";
}

/**
 * Padding added on every side of the reference ligand's bounding box: 4 Å, smina's `autobox_add`
 * default (Koes, Baumgartner & Camacho, J. Chem. Inf. Model. 2013), the usual choice for redocking.
 */
export const POCKET_BOX_PADDING = 4;
/**
 * Smallest edge: 15 Å, so a small reference ligand (a 5-Å choline) still leaves a ligand of drug
 * size room to turn (Vina keeps every atom inside the box).
 */
export const POCKET_BOX_MIN_SIZE = 15;
/** Largest edge accepted: item 1 of issue 25 refuses a box over 40 Å on a side. */
export const POCKET_BOX_MAX_SIZE = 40;

export interface PocketBoxOptions {
  readonly padding?: number;
  readonly minSize?: number;
}

/**
 * The box around a reference ligand's atoms (pass heavy atoms): their bounding box, `padding` Å added
 * on every side, each edge at least `minSize` Å, centred on the bounding box's centre.
 */
export function pocketBoxFromLigand(positions: readonly Vec3[], options: PocketBoxOptions = {}): PocketBox {
  if (positions.length === 0)
    throw new StructureError("STRUCTURE_BOX_INVALID", "the reference ligand has no atoms");
  const padding = options.padding ?? POCKET_BOX_PADDING;
  const minSize = options.minSize ?? POCKET_BOX_MIN_SIZE;
  const low = [0, 1, 2].map((axis) => Math.min(...positions.map((p) => p[axis] as number)));
  const high = [0, 1, 2].map((axis) => Math.max(...positions.map((p) => p[axis] as number)));
  const center = [0, 1, 2].map((axis) => round(((low[axis] as number) + (high[axis] as number)) / 2, 3));
  const size = [0, 1, 2].map((axis) =>
    round(Math.max(minSize, (high[axis] as number) - (low[axis] as number) + 2 * padding), 3),
  );
  return checkBox({
    center: center as unknown as Vec3,
    size: size as unknown as Vec3,
    source: "reference_ligand",
  });
}

/** An explicit box (`center`, `size` in Å), checked: every edge > 0 and ≤ 40 Å, finite numbers. */
export function pocketBoxFromCenterSize(center: Vec3, size: Vec3): PocketBox {
  return checkBox({ center, size, source: "explicit" });
}

/** True when the point lies inside the box (edges included). */
export function isInsideBox(point: Vec3, box: PocketBox): boolean {
  return [0, 1, 2].every(
    (axis) =>
      Math.abs((point[axis] as number) - (box.center[axis] as number)) <=
      (box.size[axis] as number) / 2 + 1e-9,
  );
}

function checkBox(box: PocketBox): PocketBox {
  if (![...box.center, ...box.size].every(Number.isFinite))
    throw new StructureError("STRUCTURE_BOX_INVALID", "box centre and size must be finite numbers");
  for (const edge of box.size) {
    if (edge <= 0) throw new StructureError("STRUCTURE_BOX_INVALID", `box edge ${edge} Å is empty`);
    if (edge > POCKET_BOX_MAX_SIZE)
      throw new StructureError(
        "STRUCTURE_BOX_INVALID",
        `box edge ${edge} Å is over ${POCKET_BOX_MAX_SIZE} Å`,
      );
  }
  return box;
}
