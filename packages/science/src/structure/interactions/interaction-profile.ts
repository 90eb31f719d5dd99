import type { ResidueRef } from "./complex-structure.ts";

export type InteractionType =
  | "hydrophobic"
  | "hydrogen_bond"
  | "salt_bridge"
  | "pi_stacking"
  | "pi_cation"
  | "halogen_bond"
  | "metal_complex";

export const INTERACTION_TYPES: readonly InteractionType[] = [
  "hydrophobic",
  "hydrogen_bond",
  "salt_bridge",
  "pi_stacking",
  "pi_cation",
  "halogen_bond",
  "metal_complex",
];

interface InteractionBase {
  readonly residue: ResidueRef;
  /** Ligand atom indices (0-based molblock order) taking part: the atom, group or ring. */
  readonly ligandAtoms: readonly number[];
  /** Receptor atom serial numbers taking part. */
  readonly receptorAtoms: readonly number[];
  /** Å: the criterion's distance (donor–acceptor, centroid–centroid, charge centre–centre …). */
  readonly distance: number;
}

export interface HydrophobicContact extends InteractionBase {
  readonly type: "hydrophobic";
}

export interface HydrogenBond extends InteractionBase {
  readonly type: "hydrogen_bond";
  readonly proteinIsDonor: boolean;
  /** Å, hydrogen to acceptor. */
  readonly distanceHA: number;
  /** Degrees, D–H···A. */
  readonly angle: number;
  readonly sidechain: boolean;
}

export interface SaltBridge extends InteractionBase {
  readonly type: "salt_bridge";
  readonly proteinIsPositive: boolean;
  /** The ligand's charged group (`carboxylate`, `tertamine`, `guanidine` …, PLIP's names). */
  readonly ligandGroup: string;
}

export interface PiStacking extends InteractionBase {
  readonly type: "pi_stacking";
  readonly stacking: "parallel" | "t_shaped";
  /** Degrees between ring planes (0–90). */
  readonly angle: number;
  /** Å, the smaller in-plane offset of either centroid projected into the other ring. */
  readonly offset: number;
}

export interface PiCation extends InteractionBase {
  readonly type: "pi_cation";
  /** True: the charge is on the protein and the ring on the ligand. */
  readonly proteinIsCharged: boolean;
  readonly offset: number;
  readonly ligandGroup: string;
}

export interface HalogenBond extends InteractionBase {
  readonly type: "halogen_bond";
  /** Degrees, C–X···A. */
  readonly donorAngle: number;
  /** Degrees, Y–A···X. */
  readonly acceptorAngle: number;
}

export interface MetalComplex extends InteractionBase {
  readonly type: "metal_complex";
  /** Where the metal sits and where its coordinating atom sits. */
  readonly metalIn: "receptor" | "ligand";
  readonly targetIn: "receptor" | "ligand";
}

export type Interaction =
  | HydrophobicContact
  | HydrogenBond
  | SaltBridge
  | PiStacking
  | PiCation
  | HalogenBond
  | MetalComplex;

export interface InteractionProfile {
  readonly interactions: readonly Interaction[];
  /** Residues within the binding-site distance of the ligand, in file order. */
  readonly bindingSite: readonly ResidueRef[];
}

export type InteractionCounts = Readonly<Record<InteractionType, number>> & {
  readonly total: number;
  /** Distinct residues with at least one interaction. */
  readonly residues: number;
};

/** Counts per interaction type (and distinct interacting residues), for report cards and tables. */
export function summarizeInteractions(profile: InteractionProfile): InteractionCounts {
  const counts: Record<InteractionType, number> = {
    hydrophobic: 0,
    hydrogen_bond: 0,
    salt_bridge: 0,
    pi_stacking: 0,
    pi_cation: 0,
    halogen_bond: 0,
    metal_complex: 0,
  };
  const residues = new Set<string>();
  for (const interaction of profile.interactions) {
    counts[interaction.type] += 1;
    const r = interaction.residue;
    residues.add(`${r.chain}:${r.resSeq}${r.iCode}:${r.resName}`);
  }
  return { ...counts, total: profile.interactions.length, residues: residues.size };
}
