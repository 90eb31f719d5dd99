import { electronCountProblem } from "./electron-count.ts";
import type { Geometry } from "./quantum-engine.ts";

type Xyz = readonly [number, number, number];

/** The ligand as the cluster takes it: every atom (hydrogens added), and its formal charge. */
export interface ClusterLigand {
  readonly symbols: readonly string[];
  readonly coordinates: readonly Xyz[];
  readonly formal_charge: number;
}

/** One receptor residue: its atoms are `first … first + count − 1` of the receptor's atoms. */
export interface ClusterResidue {
  readonly name: string;
  readonly chain: string;
  readonly number: number;
  readonly first: number;
  readonly count: number;
  /** The sum of its ff14SB partial charges (an integer for a standard residue, to rounding). */
  readonly charge: number;
}

/** The hydrogen-added receptor as qm_cluster_atoms.py reads it from the ff14SB model. */
export interface ClusterReceptor {
  readonly symbols: readonly string[];
  readonly coordinates: readonly Xyz[];
  readonly residues: readonly ClusterResidue[];
  /** Covalent bonds between two residues (peptide bonds, disulfides), as atom index pairs. */
  readonly bonds: readonly (readonly [number, number])[];
}

/**
 * The cluster's definition (issue 40 item 5): whole residues with any atom within
 * `pocket_cutoff_angstrom` of a ligand heavy atom — the usual first-shell criterion of QM-cluster
 * models (Siegbahn & Himo, WIREs Comput. Mol. Sci. 2011, 1, 323: the residues in contact with the
 * substrate, cut at their bonds to the rest of the protein and capped).
 */
export const QM_CLUSTER_SETTINGS = { pocket_cutoff_angstrom: 4.5 } as const;

/**
 * X–H bond lengths of the hydrogen caps, Å, by the element the cap is bonded to: N–H 1.01 and C–H
 * 1.09 (the usual capping lengths, close to an amide N–H and an sp² C–H), S–H 1.34 (H₂S, for a
 * disulfide cut). A cap sits on the cut bond, so its direction is the bond's (link-atom placement).
 */
export const CAP_BOND_ANGSTROM = { N: 1.01, C: 1.09, S: 1.34 } as const;

/** A residue's charge further than this from an integer is not a standard residue's: the cluster's charge would be a guess. */
export const RESIDUE_CHARGE_TOLERANCE = 0.02;

const distance = (a: Xyz, b: Xyz) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** `RES:CHAIN:NUMBER`, the residue's label in records. */
export const residueLabel = (residue: ClusterResidue) => `${residue.name}:${residue.chain}:${residue.number}`;

/**
 * Indices of the residues with any atom within `cutoff` Å of any ligand heavy atom (hydrogens of the
 * ligand do not select: their positions are added, not observed), in receptor order.
 */
export function selectPocketResidues(
  receptor: ClusterReceptor,
  ligand: ClusterLigand,
  cutoff: number = QM_CLUSTER_SETTINGS.pocket_cutoff_angstrom,
): number[] {
  const heavy = ligand.coordinates.filter((_, i) => ligand.symbols[i] !== "H");
  const selected: number[] = [];
  for (const [index, residue] of receptor.residues.entries()) {
    let near = false;
    for (let atom = residue.first; atom < residue.first + residue.count && !near; atom++) {
      const xyz = receptor.coordinates[atom];
      if (xyz !== undefined) near = heavy.some((l) => distance(l, xyz) <= cutoff);
    }
    if (near) selected.push(index);
  }
  return selected;
}

/** A hydrogen cap: where it is, and the cut bond it replaces (inside atom → outside atom). */
export interface Cap {
  readonly coordinates: Xyz;
  readonly inside: number;
  readonly outside: number;
}

/**
 * One hydrogen per covalent bond cut by the selection (one end in a selected residue, the other
 * not), on the bond from the inside atom towards the outside one, at the X–H length of the inside
 * atom's element. Throws on a cut at an element with no cap length (a cut a protein's ff14SB model
 * does not have: peptide bonds cut at C or N, disulfides at S).
 */
export function capsOf(receptor: ClusterReceptor, selected: readonly number[]): Cap[] {
  const inside = new Set<number>();
  for (const index of selected) {
    const residue = receptor.residues[index];
    if (residue === undefined) continue;
    for (let atom = residue.first; atom < residue.first + residue.count; atom++) inside.add(atom);
  }
  const caps: Cap[] = [];
  for (const [a, b] of receptor.bonds)
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      if (!inside.has(from) || inside.has(to)) continue;
      const symbol = receptor.symbols[from] ?? "?";
      const length = (CAP_BOND_ANGSTROM as Readonly<Record<string, number>>)[symbol];
      const p = receptor.coordinates[from];
      const q = receptor.coordinates[to];
      if (length === undefined || p === undefined || q === undefined)
        throw new RangeError(`a cut bond at ${symbol} (atom ${from}): no hydrogen cap length for it`);
      const d = distance(p, q);
      caps.push({
        coordinates: [
          p[0] + ((q[0] - p[0]) * length) / d,
          p[1] + ((q[1] - p[1]) * length) / d,
          p[2] + ((q[2] - p[2]) * length) / d,
        ],
        inside: from,
        outside: to,
      });
    }
  return caps;
}

/**
 * The pocket's net charge: the sum of its residues' ff14SB net charges, each rounded to the integer
 * it is (the caps add none: a cut peptide bond leaves a neutral aldehyde or amine end). A residue
 * further than {@link RESIDUE_CHARGE_TOLERANCE} from an integer is named instead.
 */
export function pocketChargeOf(
  receptor: ClusterReceptor,
  selected: readonly number[],
): { readonly ok: true; readonly charge: number } | { readonly ok: false; readonly reason: string } {
  let charge = 0;
  for (const index of selected) {
    const residue = receptor.residues[index];
    if (residue === undefined) continue;
    const rounded = Math.round(residue.charge);
    if (Math.abs(residue.charge - rounded) > RESIDUE_CHARGE_TOLERANCE)
      return {
        ok: false,
        reason: `residue ${residueLabel(residue)} has a non-integer ff14SB net charge (${residue.charge})`,
      };
    charge += rounded;
  }
  return { ok: true, charge };
}

/** The three geometries of ΔE = E(complex) − E(pocket) − E(ligand), on the same coordinates. */
export interface ClusterGeometries {
  readonly complex: Geometry;
  readonly pocket: Geometry;
  readonly ligand: Geometry;
  readonly residues: readonly string[];
  readonly caps: number;
}

/**
 * The QM cluster of a posed ligand (issue 40 item 5): the selected whole residues plus their
 * hydrogen caps as the pocket; the ligand as posed; the complex as both. The complex's charge is the
 * pocket's plus the ligand's formal charge.
 */
export function buildCluster(
  receptor: ClusterReceptor,
  ligand: ClusterLigand,
  cutoff: number = QM_CLUSTER_SETTINGS.pocket_cutoff_angstrom,
):
  | { readonly ok: true; readonly cluster: ClusterGeometries }
  | { readonly ok: false; readonly reason: string } {
  const selected = selectPocketResidues(receptor, ligand, cutoff);
  if (selected.length === 0)
    return { ok: false, reason: `no receptor residue within ${cutoff} Å of the ligand: not in the pocket` };
  const charge = pocketChargeOf(receptor, selected);
  if (!charge.ok) return charge;
  let caps: Cap[];
  try {
    caps = capsOf(receptor, selected);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  const symbols: string[] = [];
  const coordinates: Xyz[] = [];
  for (const index of selected) {
    const residue = receptor.residues[index] as ClusterResidue;
    for (let atom = residue.first; atom < residue.first + residue.count; atom++) {
      symbols.push(receptor.symbols[atom] as string);
      coordinates.push(receptor.coordinates[atom] as Xyz);
    }
  }
  for (const cap of caps) {
    symbols.push("H");
    coordinates.push(cap.coordinates);
  }
  const pocket: Geometry = { symbols, coordinates, charge: charge.charge };
  const posed: Geometry = {
    symbols: ligand.symbols,
    coordinates: ligand.coordinates,
    charge: ligand.formal_charge,
  };
  for (const [part, geometry] of [
    ["pocket", pocket],
    ["ligand", posed],
  ] as const) {
    const problem = electronCountProblem(geometry);
    if (problem !== null) return { ok: false, reason: `the ${part} is not a closed shell: ${problem}` };
  }
  return {
    ok: true,
    cluster: {
      pocket,
      ligand: posed,
      complex: {
        symbols: [...symbols, ...ligand.symbols],
        coordinates: [...coordinates, ...ligand.coordinates],
        charge: charge.charge + ligand.formal_charge,
      },
      residues: selected.map((index) => residueLabel(receptor.residues[index] as ClusterResidue)),
      caps: caps.length,
    },
  };
}
