import { round } from "../numeric/round.ts";
import type { MolfileMolecule } from "./molfile.ts";
import { isInsideBox, type PocketBox } from "./pocket-box.ts";
import type { Vec3 } from "./vec3.ts";

/**
 * Pose checks in the manner of PoseBusters (Buttenschoen, Morris & Deane, Chem. Sci. 2024, 15, 3130),
 * on coordinates only. Heavy atoms throughout (PoseBusters ignores hydrogens in its clash checks).
 * - `bond_lengths`: every bond within ±25% of the same bond in the prepared ligand (PoseBusters'
 *   bond-length tolerance is 0.25 of its distance-geometry bounds; our bounds are the prepared,
 *   MMFF94-minimised ligand's own lengths).
 * - `bond_angles`: every 1–3 distance (two bonds sharing an atom) within ±25% of the prepared ligand's:
 *   PoseBusters, too, checks angles as 1–3 distances.
 * - `internal_steric_clash`: atoms more than three bonds apart at least `CLASH_FRACTION` × the sum of
 *   their van der Waals radii apart.
 * - `minimum_distance_to_protein`: every ligand–receptor heavy-atom pair at least `CLASH_FRACTION` ×
 *   the sum of their van der Waals radii apart (PoseBusters' `clash_cutoff` 0.75).
 * - `inside_box`: every heavy atom inside the docking box.
 */
export const POSE_CHECK_TOLERANCE = 0.25;
/** The fraction of the van der Waals sum below which two atoms clash (PoseBusters' clash_cutoff). */
export const CLASH_FRACTION = 0.75;

/** Bondi's van der Waals radii (J. Phys. Chem. 1964, 68, 441), Å; metals from Alvarez 2013. */
const VDW_RADII: Readonly<Record<string, number>> = {
  H: 1.2,
  C: 1.7,
  N: 1.55,
  O: 1.52,
  F: 1.47,
  P: 1.8,
  S: 1.8,
  Cl: 1.75,
  Br: 1.85,
  I: 1.98,
  Se: 1.9,
  B: 1.92,
  Si: 2.1,
  Zn: 2.01,
  Mg: 2.51,
  Ca: 2.62,
  Fe: 2.04,
  Mn: 2.05,
  Na: 2.5,
  K: 2.73,
  Cu: 1.96,
  Co: 1.94,
  Ni: 1.97,
};
const DEFAULT_VDW_RADIUS = 1.8;

export type PoseCheckName =
  | "bond_lengths"
  | "bond_angles"
  | "internal_steric_clash"
  | "minimum_distance_to_protein"
  | "inside_box";

export interface PoseCheck {
  readonly name: PoseCheckName;
  readonly passed: boolean;
  /** The worst value seen, e.g. the smallest distance ratio; for the report. */
  readonly worst: number | null;
  readonly detail: string;
}

export interface PoseCheckResult {
  /** True when every check that ran passed. */
  readonly passed: boolean;
  readonly checks: readonly PoseCheck[];
}

export interface PoseCheckInput {
  /** The pose, heavy atoms in the same order as `reference`. */
  readonly pose: MolfileMolecule;
  /** The prepared ligand (heavy atoms) whose bond lengths and angles are the bounds. */
  readonly reference: MolfileMolecule;
  /** Receptor heavy-atom elements and positions; omitted: no protein check. */
  readonly receptor?: readonly { readonly element: string; readonly position: Vec3 }[];
  /** Omitted: no box check. */
  readonly box?: PocketBox;
}

/** Runs every check whose inputs are given (see the constants above for the criteria). */
export function checkPose(input: PoseCheckInput): PoseCheckResult {
  const { pose, reference } = input;
  if (pose.atoms.length !== reference.atoms.length)
    throw new Error(`pose has ${pose.atoms.length} atoms, reference ${reference.atoms.length}`);
  const checks: PoseCheck[] = [
    checkBondLengths(pose, reference),
    checkBondAngles(pose, reference),
    checkInternalClash(pose),
  ];
  if (input.receptor) checkProteinClash(pose, input.receptor, checks);
  if (input.box) {
    const box = input.box;
    const outside = pose.atoms.filter((atom) => !isInsideBox(atom.position, box)).length;
    checks.push({
      name: "inside_box",
      passed: outside === 0,
      worst: outside,
      detail: `${outside} of ${pose.atoms.length} heavy atoms outside the box`,
    });
  }
  return { passed: checks.every((check) => check.passed), checks };
}

function checkBondLengths(pose: MolfileMolecule, reference: MolfileMolecule): PoseCheck {
  let worst = 1;
  for (const bond of reference.bonds) {
    const ratio = distanceOf(pose, bond.a, bond.b) / distanceOf(reference, bond.a, bond.b);
    if (Math.abs(ratio - 1) > Math.abs(worst - 1)) worst = ratio;
  }
  return ratioCheck("bond_lengths", worst, `${reference.bonds.length} bonds`);
}

function checkBondAngles(pose: MolfileMolecule, reference: MolfileMolecule): PoseCheck {
  const neighbours = neighbourLists(reference);
  let worst = 1;
  let count = 0;
  for (const list of neighbours) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i] as number;
        const b = list[j] as number;
        const ratio = distanceOf(pose, a, b) / distanceOf(reference, a, b);
        count++;
        if (Math.abs(ratio - 1) > Math.abs(worst - 1)) worst = ratio;
      }
    }
  }
  return ratioCheck("bond_angles", worst, `${count} angles (1–3 distances)`);
}

function ratioCheck(name: PoseCheckName, worst: number, what: string): PoseCheck {
  const passed = Math.abs(worst - 1) <= POSE_CHECK_TOLERANCE + 1e-9;
  return {
    name,
    passed,
    worst: round(worst, 3),
    detail: `${what}; worst pose/reference ratio ${round(worst, 3)} (allowed ${1 - POSE_CHECK_TOLERANCE}–${1 + POSE_CHECK_TOLERANCE})`,
  };
}

function checkInternalClash(pose: MolfileMolecule): PoseCheck {
  const hops = topologicalDistances(pose);
  let worst = Number.POSITIVE_INFINITY;
  for (let a = 0; a < pose.atoms.length; a++) {
    for (let b = a + 1; b < pose.atoms.length; b++) {
      if ((hops[a]?.[b] ?? Number.POSITIVE_INFINITY) <= 3) continue;
      const ratio = distanceOf(pose, a, b) / vdwSum(pose.atoms[a]?.element, pose.atoms[b]?.element);
      if (ratio < worst) worst = ratio;
    }
  }
  const finite = Number.isFinite(worst);
  return {
    name: "internal_steric_clash",
    passed: !finite || worst >= CLASH_FRACTION,
    worst: finite ? round(worst, 3) : null,
    detail: finite
      ? `closest pair more than 3 bonds apart at ${round(worst, 3)} × its vdW sum (clash below ${CLASH_FRACTION})`
      : "no pair more than 3 bonds apart",
  };
}

function checkProteinClash(
  pose: MolfileMolecule,
  receptor: readonly { readonly element: string; readonly position: Vec3 }[],
  checks: PoseCheck[],
): void {
  let worst = Number.POSITIVE_INFINITY;
  let clashes = 0;
  for (const atom of pose.atoms) {
    for (const other of receptor) {
      if (other.element === "H") continue;
      const ratio = distance(atom.position, other.position) / vdwSum(atom.element, other.element);
      if (ratio < worst) worst = ratio;
      if (ratio < CLASH_FRACTION) clashes++;
    }
  }
  const finite = Number.isFinite(worst);
  checks.push({
    name: "minimum_distance_to_protein",
    passed: clashes === 0,
    worst: finite ? round(worst, 3) : null,
    detail: `${clashes} ligand–protein heavy-atom pairs under ${CLASH_FRACTION} × their vdW sum; closest ${finite ? round(worst, 3) : "n/a"}`,
  });
}

function neighbourLists(molecule: MolfileMolecule): number[][] {
  const lists = molecule.atoms.map(() => [] as number[]);
  for (const bond of molecule.bonds) {
    lists[bond.a]?.push(bond.b);
    lists[bond.b]?.push(bond.a);
  }
  return lists;
}

/** Bond counts between atoms, by breadth-first search from each atom. */
function topologicalDistances(molecule: MolfileMolecule): number[][] {
  const neighbours = neighbourLists(molecule);
  return molecule.atoms.map((_, start) => {
    const hops = molecule.atoms.map(() => Number.POSITIVE_INFINITY);
    hops[start] = 0;
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head] as number;
      for (const next of neighbours[at] ?? []) {
        if (hops[next] === Number.POSITIVE_INFINITY) {
          hops[next] = (hops[at] as number) + 1;
          queue.push(next);
        }
      }
    }
    return hops;
  });
}

function vdwSum(a: string | undefined, b: string | undefined): number {
  return radiusOf(a) + radiusOf(b);
}

/** An element's radius whatever its case: a molfile writes `Cl`, the structure reader `CL`. */
function radiusOf(element: string | undefined): number {
  const symbol = element ?? "";
  return VDW_RADII[symbol.slice(0, 1).toUpperCase() + symbol.slice(1).toLowerCase()] ?? DEFAULT_VDW_RADIUS;
}

function distanceOf(molecule: MolfileMolecule, a: number, b: number): number {
  return distance(molecule.atoms[a]?.position ?? [0, 0, 0], molecule.atoms[b]?.position ?? [0, 0, 0]);
}

function distance(p: Vec3, q: Vec3): number {
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}
