import type { StructureAtom } from "../structure-atom.ts";
import type { Vec3 } from "../vec3.ts";
import type { ResidueRef } from "./complex-structure.ts";
import type { ChargeFeature, DonorPair, RingFeature } from "./feature-types.ts";
import { centroid, distance } from "./geometry.ts";
import { isPlanarRing, ringFeature } from "./ligand-features.ts";

/**
 * Receptor atom typing from residue templates (standard amino acids; HETATM groups are not binding-site
 * residues, as in PLIP) and the covalent graph found by distance (Open Babel's rule, which PLIP reads the
 * complex with: bonded when closer than the two covalent radii + 0.45 Å):
 *
 * - hydrophobic: carbon bonded only to C or H (e.g. Leu CD1, Phe ring carbons, Lys CB–CD);
 * - acceptor: every oxygen; nitrogen unless sp3 with 4 partners (NH3+) or sp2 with 3 partners counting H —
 *   so backbone N–H, Arg NE, Asn ND2 and protonated His/Trp ring N are not acceptors, while an
 *   unprotonated His N, a neutral Lys NZ (2 H) or a neutral N-terminus are. sp3 nitrogen: Lys NZ and the
 *   N-terminal N; every other protein nitrogen is sp2;
 * - donor: N or O with a bonded hydrogen (as given in the file: protonate the receptor first);
 * - rings: Phe, Tyr, Trp (5 and 6), His aromatic; Pro when planar within 5°;
 * - charged: Arg, His, Lys side-chain N (+), Asp, Glu side-chain O (−), each residue one group centred on
 *   its atoms (PLIP counts histidine as positive whatever its protonation);
 * - halogen-bond acceptors: O, N or S with exactly one C, N, P or S partner.
 */
export interface ReceptorFeatures {
  readonly bindingSite: readonly ResidueRef[];
  readonly atoms: ReadonlyMap<number, StructureAtom>;
  readonly hydrophobic: readonly number[];
  readonly acceptors: readonly number[];
  readonly donors: readonly DonorPair[];
  readonly rings: readonly RingFeature[];
  readonly charged: readonly ChargeFeature[];
  readonly halogenAcceptors: readonly { readonly acceptor: number; readonly partner: number }[];
  readonly metalBinding: readonly number[];
  readonly metals: readonly number[];
  readonly residueOf: (serial: number) => ResidueRef;
}

export const AMINO_ACIDS: ReadonlySet<string> = new Set([
  "ALA",
  "ARG",
  "ASN",
  "ASP",
  "CYS",
  "GLN",
  "GLU",
  "GLY",
  "HIS",
  "ILE",
  "LEU",
  "LYS",
  "MET",
  "PHE",
  "PRO",
  "SER",
  "THR",
  "TRP",
  "TYR",
  "VAL",
]);

const BACKBONE = new Set(["N", "CA", "C", "O", "OXT"]);

/** Rings in cyclic order (neighbours in the list are bonded). */
const RING_TEMPLATES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  PHE: [["CG", "CD1", "CE1", "CZ", "CE2", "CD2"]],
  TYR: [["CG", "CD1", "CE1", "CZ", "CE2", "CD2"]],
  TRP: [
    ["CG", "CD1", "NE1", "CE2", "CD2"],
    ["CD2", "CE2", "CZ2", "CH2", "CZ3", "CE3"],
  ],
  HIS: [["CG", "ND1", "CE1", "NE2", "CD2"]],
  PRO: [["N", "CA", "CB", "CG", "CD"]],
};
const AROMATIC_RESIDUES = new Set(["PHE", "TYR", "TRP", "HIS"]);

/** Covalent radii (Å) as Open Babel tabulates them; others default to 1.5. */
const COVALENT_RADIUS: Readonly<Record<string, number>> = {
  H: 0.31,
  C: 0.76,
  N: 0.71,
  O: 0.66,
  S: 1.05,
  P: 1.07,
  SE: 1.2,
  F: 0.57,
  CL: 1.02,
  BR: 1.2,
  I: 1.39,
  ZN: 1.22,
  FE: 1.32,
  MG: 1.41,
  CA: 1.76,
  MN: 1.39,
  CU: 1.32,
  NI: 1.24,
  CO: 1.26,
  NA: 1.66,
  K: 2.03,
};

export interface ReceptorTypingOptions {
  readonly bindingSiteDistance: number;
  readonly isMetal: (element: string) => boolean;
  readonly aromaticPlanarity: number;
}

export function typeReceptor(
  receptor: readonly StructureAtom[],
  ligandHeavy: readonly Vec3[],
  options: ReceptorTypingOptions,
): ReceptorFeatures {
  const atoms = new Map<number, StructureAtom>();
  for (const atom of receptor) atoms.set(atom.serial, atom);
  const residueKey = (a: StructureAtom) => `${a.chain}\u0000${a.resSeq}\u0000${a.iCode}\u0000${a.resName}`;
  const residues = new Map<string, StructureAtom[]>();
  for (const atom of receptor) {
    const key = residueKey(atom);
    const list = residues.get(key);
    if (list === undefined) residues.set(key, [atom]);
    else list.push(atom);
  }
  const grid = new SpatialGrid(receptor, 2.5);
  const neighborCache = new Map<number, readonly StructureAtom[]>();
  const bonded = (atom: StructureAtom): readonly StructureAtom[] => {
    let cached = neighborCache.get(atom.serial);
    if (cached === undefined) {
      const r1 = COVALENT_RADIUS[atom.element] ?? 1.5;
      cached = grid.within(atom.position, 3.6).filter((other) => {
        if (other.serial === atom.serial) return false;
        if (atom.element === "H" && other.element === "H") return false;
        const d = distance(atom.position, other.position);
        return d > 0.4 && d < r1 + (COVALENT_RADIUS[other.element] ?? 1.5) + 0.45;
      });
      neighborCache.set(atom.serial, cached);
    }
    return cached;
  };

  // Binding site (PLIP): amino-acid residues whose centroid lies within the ligand's radius + 7.5 Å of its
  // centroid, and of those the atoms within 7.5 Å of any ligand heavy atom.
  const ligandCenter = centroid(ligandHeavy);
  const ligandRadius = Math.max(...ligandHeavy.map((p) => distance(p, ligandCenter)));
  const siteAtoms: StructureAtom[] = [];
  const bindingSite: ResidueRef[] = [];
  const cutoff = options.bindingSiteDistance;
  for (const list of residues.values()) {
    const first = list[0];
    if (first === undefined || !AMINO_ACIDS.has(first.resName)) continue;
    if (distance(centroid(list.map((a) => a.position)), ligandCenter) >= ligandRadius + cutoff) continue;
    const near = list.filter((a) => ligandHeavy.some((p) => distance(a.position, p) <= cutoff));
    if (near.length === 0) continue;
    siteAtoms.push(...near);
    bindingSite.push({
      chain: first.chain,
      resSeq: first.resSeq,
      iCode: first.iCode,
      resName: first.resName,
    });
  }
  siteAtoms.sort((a, b) => a.serial - b.serial);
  const inSite = new Set(siteAtoms.map((a) => a.serial));

  const hydrophobic = siteAtoms
    .filter((a) => a.element === "C" && bonded(a).every((b) => b.element === "C" || b.element === "H"))
    .map((a) => a.serial);

  const nitrogenIsSp3 = (a: StructureAtom): boolean => {
    if (a.resName === "LYS" && a.name === "NZ") return true;
    if (a.name === "N") return !bonded(a).some((b) => b.element === "C" && b.name === "C");
    return false;
  };
  const acceptors = siteAtoms
    .filter((a) => {
      if (a.element === "O") return true;
      if (a.element !== "N") return false;
      const degree = bonded(a).length;
      const sp3 = nitrogenIsSp3(a);
      return !((degree === 4 && sp3) || (degree === 3 && !sp3));
    })
    .map((a) => a.serial);

  const donors: DonorPair[] = [];
  for (const a of siteAtoms) {
    if (a.element !== "N" && a.element !== "O") continue;
    for (const h of bonded(a)) if (h.element === "H") donors.push({ donor: a.serial, hydrogen: h.serial });
  }

  const rings: RingFeature[] = [];
  for (const list of residues.values()) {
    const first = list[0];
    if (first === undefined || !AMINO_ACIDS.has(first.resName)) continue;
    for (const template of RING_TEMPLATES[first.resName] ?? []) {
      const byName = new Map(list.map((a) => [a.name, a]));
      const full = template.map((name) => byName.get(name));
      const present = full.filter((a): a is StructureAtom => a !== undefined && inSite.has(a.serial));
      if (present.length < 5 || present.length > 6) continue;
      if (!AROMATIC_RESIDUES.has(first.resName)) {
        if (full.some((a) => a === undefined)) continue;
        const cyclic = full as StructureAtom[];
        const withNeighbors = present.map((a) => {
          const k = cyclic.indexOf(a);
          const prev = cyclic[(k + cyclic.length - 1) % cyclic.length];
          const next = cyclic[(k + 1) % cyclic.length];
          return [a.position, prev?.position, next?.position].filter((p): p is Vec3 => p !== undefined);
        });
        if (!isPlanarRing(withNeighbors, options.aromaticPlanarity)) continue;
      }
      const members = present.map((a) => a.serial).sort((x, y) => x - y);
      rings.push(ringFeature(members, (serial) => atoms.get(serial)?.position ?? [0, 0, 0]));
    }
  }

  const charged: ChargeFeature[] = [];
  for (const list of residues.values()) {
    const first = list[0];
    if (first === undefined) continue;
    const positive = ["ARG", "HIS", "LYS"].includes(first.resName);
    const negative = ["ASP", "GLU"].includes(first.resName);
    if (!positive && !negative) continue;
    const group = list.filter((a) => !BACKBONE.has(a.name) && a.element === (positive ? "N" : "O"));
    if (group.length === 0) continue;
    charged.push({
      atoms: group.map((a) => a.serial),
      center: centroid(group.map((a) => a.position)),
      positive,
      group: first.resName,
    });
  }

  const halogenAcceptors: { acceptor: number; partner: number }[] = [];
  for (const a of siteAtoms) {
    if (a.element !== "O" && a.element !== "N" && a.element !== "S") continue;
    const partners = bonded(a).filter((b) => ["C", "N", "P", "S"].includes(b.element));
    const partner = partners[0];
    if (partners.length === 1 && partner !== undefined) {
      halogenAcceptors.push({ acceptor: a.serial, partner: partner.serial });
    }
  }

  // Atoms that can coordinate a metal carried by the ligand (PLIP's protein list).
  const metalBinding = receptor
    .filter((a) => {
      if (a.name === "O" && AMINO_ACIDS.has(a.resName)) return true;
      if (BACKBONE.has(a.name)) return false;
      if (["ASP", "GLU", "SER", "THR", "TYR"].includes(a.resName)) return a.element === "O";
      if (a.resName === "HIS") return a.element === "N";
      if (a.resName === "CYS") return a.element === "S";
      return false;
    })
    .map((a) => a.serial);
  const metals = receptor.filter((a) => a.hetero && options.isMetal(a.element)).map((a) => a.serial);

  return {
    bindingSite,
    atoms,
    hydrophobic,
    acceptors,
    donors,
    rings,
    charged,
    halogenAcceptors,
    metalBinding,
    metals,
    residueOf: (serial) => {
      const a = atoms.get(serial);
      return a === undefined
        ? { chain: "", resSeq: 0, iCode: "", resName: "" }
        : { chain: a.chain, resSeq: a.resSeq, iCode: a.iCode, resName: a.resName };
    },
  };
}

/** Uniform grid over atom positions for neighbour queries in O(1) per cell. */
class SpatialGrid {
  private readonly cells = new Map<string, StructureAtom[]>();
  private readonly size: number;
  constructor(atoms: readonly StructureAtom[], size: number) {
    this.size = size;
    for (const atom of atoms) {
      const key = this.key(atom.position);
      const cell = this.cells.get(key);
      if (cell === undefined) this.cells.set(key, [atom]);
      else cell.push(atom);
    }
  }

  private key(p: Vec3): string {
    return `${Math.floor(p[0] / this.size)},${Math.floor(p[1] / this.size)},${Math.floor(p[2] / this.size)}`;
  }

  within(p: Vec3, radius: number): StructureAtom[] {
    const out: StructureAtom[] = [];
    const reach = Math.ceil(radius / this.size);
    const cx = Math.floor(p[0] / this.size);
    const cy = Math.floor(p[1] / this.size);
    const cz = Math.floor(p[2] / this.size);
    for (let x = cx - reach; x <= cx + reach; x++) {
      for (let y = cy - reach; y <= cy + reach; y++) {
        for (let z = cz - reach; z <= cz + reach; z++) {
          for (const atom of this.cells.get(`${x},${y},${z}`) ?? []) {
            if (distance(atom.position, p) <= radius) out.push(atom);
          }
        }
      }
    }
    return out;
  }
}
