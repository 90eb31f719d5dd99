import type { Vec3 } from "../vec3.ts";
import type { LigandStructure } from "./complex-structure.ts";
import type { ChargeFeature, DonorPair, RingFeature } from "./feature-types.ts";
import { angleBetween, centroid, cross, normalize, sub } from "./geometry.ts";

/**
 * Ligand atom typing for the interaction profile. The rules are PLIP's (Salentin et al. 2015), which types
 * ligands with Open Babel on the heavy-atom graph; here the graph, bond orders, aromaticity and SSSR rings are
 * RDKit's (read by `readLigandMolblock`), and each rule is restated in chemical terms:
 *
 * - hydrophobic: carbon bonded only to carbon (and hydrogen);
 * - acceptor: oxygen except nitro, aromatic (furan), sulfone and ester sp3 oxygens and aryl–O–aryl ethers;
 *   nitrogen except cations (4 heavy neighbours, sp3) and sp2 nitrogen with 3 heavy neighbours (tertiary
 *   amides, anilines, pyrrole-type N); anionic sulfur. Halogens never (Open Babel's acceptor rules, citing
 *   Kubinyi; Bissantz et al. J. Med. Chem. 2010; Dunitz & Taylor 1997);
 * - donor: N, O or F carrying an explicit hydrogen (each N–H / O–H is a donor pair);
 * - rings: SSSR rings of 5–6 atoms that RDKit calls aromatic or whose atom normals deviate ≤ 5°;
 * - charged groups (PLIP's list): quaternary ammonium and tertiary sp3 amines (assumed protonated),
 *   sulfonium, guanidine (+); carboxylate (any C with two O and one C neighbour, so esters too), phosphate,
 *   sulfonic acid, sulfate (−);
 * - halogen-bond donors: F, Cl, Br or I bonded to exactly one carbon.
 *
 * Hybridisation of nitrogen follows Open Babel's `atomtyp.txt` rules: sp2 when aromatic, double-bonded,
 * bonded to an aromatic atom or to a C/N/O that carries a double, triple or aromatic bond; sp otherwise
 * for triple bonds; sp3 else.
 */
export interface LigandFeatures {
  readonly heavyAtoms: readonly number[];
  readonly neighbors: readonly (readonly number[])[];
  readonly hydrophobic: readonly number[];
  readonly acceptors: readonly number[];
  readonly donors: readonly DonorPair[];
  readonly rings: readonly RingFeature[];
  readonly charged: readonly ChargeFeature[];
  readonly halogenDonors: readonly { readonly halogen: number; readonly carbon: number }[];
  /** Tertiary amines: the three heavy neighbours, for PLIP's amine-plane check in π-cation. */
  readonly amineNeighbors: ReadonlyMap<number, readonly number[]>;
  readonly metals: readonly number[];
}

const HALOGENS = new Set(["F", "CL", "BR", "I"]);

export function typeLigand(
  ligand: LigandStructure,
  isMetal: (element: string) => boolean,
  aromaticPlanarity: number,
): LigandFeatures {
  const n = ligand.atoms.length;
  const neighbors: number[][] = Array.from({ length: n }, () => []);
  const bondOrder = new Map<string, { order: number; aromatic: boolean }>();
  for (const bond of ligand.bonds) {
    neighbors[bond.begin]?.push(bond.end);
    neighbors[bond.end]?.push(bond.begin);
    bondOrder.set(pairKey(bond.begin, bond.end), { order: bond.order, aromatic: bond.aromatic });
  }
  const element = (i: number): string => ligand.atoms[i]?.element ?? "";
  const isHeavy = (i: number): boolean => element(i) !== "H";
  const heavyNeighbors = neighbors.map((list) => list.filter(isHeavy));
  const pos = (i: number): Vec3 => ligand.atoms[i]?.position ?? [0, 0, 0];
  const aromatic = (i: number): boolean => ligand.atoms[i]?.aromatic ?? false;
  const bond = (a: number, b: number) => bondOrder.get(pairKey(a, b)) ?? { order: 1, aromatic: false };
  const hasMultipleBond = (i: number): boolean =>
    (heavyNeighbors[i] ?? []).some((j) => {
      const b = bond(i, j);
      return b.aromatic || b.order >= 2;
    });
  const heavyAtoms = ligand.atoms.filter((a) => a.element !== "H").map((a) => a.index);

  const nitrogenHybrid = (i: number): 1 | 2 | 3 => {
    const nb = heavyNeighbors[i] ?? [];
    const orders = nb.map((j) => bond(i, j));
    if (orders.some((b) => b.order === 3 && !b.aromatic)) return 1;
    if (nb.length === 2 && orders.every((b) => b.order === 2 && !b.aromatic)) return 1;
    if (aromatic(i) || orders.some((b) => b.aromatic || b.order >= 2)) return 2;
    if (nb.some((j) => aromatic(j))) return 2;
    if (nb.some((j) => ["C", "N", "O"].includes(element(j)) && hasMultipleBond(j))) return 2;
    return 3;
  };

  const isTerminalOxygen = (j: number): boolean =>
    element(j) === "O" && (heavyNeighbors[j]?.length ?? 0) === 1;
  const isAcceptor = (i: number): boolean => {
    const e = element(i);
    const nb = heavyNeighbors[i] ?? [];
    if (e === "O") {
      if (aromatic(i)) return false;
      // Nitro oxygen: on a nitrogen that carries two terminal oxygens.
      if (
        nb.some((j) => element(j) === "N" && (heavyNeighbors[j] ?? []).filter(isTerminalOxygen).length >= 2)
      ) {
        return false;
      }
      // Sulfone oxygen: S with exactly two terminal O, its other two partners carbon or bridging oxygen.
      if (
        nb.some((j) => {
          if (element(j) !== "S") return false;
          const sn = heavyNeighbors[j] ?? [];
          const terminal = sn.filter(isTerminalOxygen);
          const others = sn.filter((k) => !isTerminalOxygen(k));
          return (
            sn.length === 4 &&
            terminal.length === 2 &&
            others.every((k) => element(k) === "C" || element(k) === "O")
          );
        })
      ) {
        return false;
      }
      if (nb.filter((j) => aromatic(j)).length >= 2) return false;
      // Ester (and carbamate, carbonate) sp3 oxygen: single-bonded to a carbonyl carbon and to another atom.
      if (
        nb.length >= 2 &&
        nb.some(
          (j) =>
            !aromatic(j) &&
            element(j) === "C" &&
            bond(i, j).order === 1 &&
            (heavyNeighbors[j] ?? []).some((k) => k !== i && element(k) === "O" && bond(j, k).order === 2),
        )
      ) {
        return false;
      }
      return true;
    }
    if (e === "N") {
      const hyb = nitrogenHybrid(i);
      if (nb.length === 4 && hyb === 3) return false;
      if (nb.length === 3 && hyb === 2) return false;
      return true;
    }
    if (e === "S") return (ligand.atoms[i]?.charge ?? 0) === -1;
    return false;
  };

  const hydrophobic = heavyAtoms.filter(
    (i) => element(i) === "C" && (heavyNeighbors[i] ?? []).every((j) => element(j) === "C"),
  );
  const acceptors = heavyAtoms.filter((i) => !HALOGENS.has(element(i)) && isAcceptor(i));
  const donors: DonorPair[] = [];
  for (const i of heavyAtoms) {
    if (!["N", "O", "F"].includes(element(i))) continue;
    for (const h of neighbors[i] ?? []) if (element(h) === "H") donors.push({ donor: i, hydrogen: h });
  }

  const rings: RingFeature[] = [];
  for (const ring of ligand.rings) {
    if (ring.length < 5 || ring.length > 6) continue;
    const members = [...ring].sort((a, b) => a - b);
    const ringSet = new Set(members);
    const isAromaticRing = members.every((i) => aromatic(i));
    const planar = isPlanarRing(
      members.map((i) => [pos(i), ...ringNeighbors(i, neighbors, ringSet).map(pos)]),
      aromaticPlanarity,
    );
    if (!isAromaticRing && !planar) continue;
    rings.push(ringFeature(members, pos));
  }

  const charged: ChargeFeature[] = [];
  const amineNeighbors = new Map<number, readonly number[]>();
  for (const i of heavyAtoms) {
    const e = element(i);
    const nb = heavyNeighbors[i] ?? [];
    const countOf = (symbol: string) => nb.filter((j) => element(j) === symbol).length;
    if (e === "N") {
      if (nb.length === 4) {
        charged.push({ atoms: [i], center: pos(i), positive: true, group: "quartamine" });
      } else if (nitrogenHybrid(i) === 3 && nb.length >= 3) {
        charged.push({ atoms: [i], center: pos(i), positive: true, group: "tertamine" });
        amineNeighbors.set(i, nb);
      }
    }
    if (e === "S") {
      if (nb.length === 3) charged.push({ atoms: [i], center: pos(i), positive: true, group: "sulfonium" });
      else if (countOf("O") === 3) {
        charged.push({
          atoms: [i, ...nb.filter((j) => element(j) === "O")],
          center: pos(i),
          positive: false,
          group: "sulfonicacid",
        });
      } else if (countOf("O") === 4) {
        charged.push({ atoms: [i, ...nb], center: pos(i), positive: false, group: "sulfate" });
      }
    }
    if (e === "P" && nb.length > 0 && nb.every((j) => element(j) === "O")) {
      charged.push({ atoms: [i, ...nb], center: pos(i), positive: false, group: "phosphate" });
    }
    if (e === "C") {
      if (countOf("O") === 2 && countOf("C") === 1) {
        const oxygens = nb.filter((j) => element(j) === "O");
        charged.push({
          atoms: oxygens,
          center: centroid(oxygens.map(pos)),
          positive: false,
          group: "carboxylate",
        });
      } else if (
        countOf("N") === 3 &&
        nb.length === 3 &&
        nb.some((j) => (heavyNeighbors[j]?.length ?? 0) === 1)
      ) {
        charged.push({ atoms: nb, center: pos(i), positive: true, group: "guanidine" });
      }
    }
  }

  const halogenDonors: { halogen: number; carbon: number }[] = [];
  for (const i of heavyAtoms) {
    if (!HALOGENS.has(element(i))) continue;
    const carbons = (heavyNeighbors[i] ?? []).filter((j) => element(j) === "C");
    const carbon = carbons[0];
    if (carbons.length === 1 && carbon !== undefined) halogenDonors.push({ halogen: i, carbon });
  }

  return {
    heavyAtoms,
    neighbors,
    hydrophobic,
    acceptors,
    donors,
    rings,
    charged,
    halogenDonors,
    amineNeighbors,
    metals: heavyAtoms.filter((i) => isMetal(element(i))),
  };
}

function pairKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

function ringNeighbors(
  i: number,
  neighbors: readonly (readonly number[])[],
  ring: ReadonlySet<number>,
): number[] {
  return (neighbors[i] ?? []).filter((j) => ring.has(j)).slice(0, 2);
}

/**
 * PLIP's planarity test: the normal at each ring atom (from its two ring neighbours) may deviate at most
 * 5° from every other (or from its reverse). Each entry is [atom, neighbour 1, neighbour 2].
 */
export function isPlanarRing(
  atomsWithNeighbors: readonly (readonly Vec3[])[],
  maxDeviation: number,
): boolean {
  const normals: Vec3[] = [];
  for (const [a, n1, n2] of atomsWithNeighbors) {
    if (a === undefined || n1 === undefined || n2 === undefined) return false;
    normals.push(cross(sub(n1, a), sub(n2, a)));
  }
  for (const n1 of normals) {
    for (const n2 of normals) {
      const angle = angleBetween(n1, n2);
      if (angle > maxDeviation && angle < 180 - maxDeviation) return false;
    }
  }
  return true;
}

/** Centroid, and the normal from members 0, 2 and 4 (PLIP's probe atoms, assuming planarity). */
export function ringFeature(members: readonly number[], pos: (i: number) => Vec3): RingFeature {
  const points = members.map(pos);
  const a0 = points[0] ?? [0, 0, 0];
  const a2 = points[2] ?? [0, 0, 0];
  const a4 = points[4] ?? [0, 0, 0];
  return { atoms: members, center: centroid(points), normal: normalize(cross(sub(a2, a0), sub(a0, a4))) };
}
