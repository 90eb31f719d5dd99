import type { StructureAtom } from "../structure-atom.ts";
import type { Vec3 } from "../vec3.ts";
import type { LigandStructure } from "./complex-structure.ts";
import type { ChargeFeature, RingFeature } from "./feature-types.ts";
import { angleBetween, cross, distance, inPlaneOffset, planeAngle, sub } from "./geometry.ts";
import { type InteractionCriteria, METAL_ELEMENTS, PLIP_CRITERIA } from "./interaction-criteria.ts";
import type {
  HalogenBond,
  HydrogenBond,
  HydrophobicContact,
  Interaction,
  InteractionProfile,
  MetalComplex,
  PiCation,
  PiStacking,
  SaltBridge,
} from "./interaction-profile.ts";
import { type LigandFeatures, typeLigand } from "./ligand-features.ts";
import { type ReceptorFeatures, typeReceptor } from "./receptor-features.ts";

export interface ProfileOptions {
  /** Override any of PLIP's thresholds (defaults: `PLIP_CRITERIA`). */
  readonly criteria?: Partial<InteractionCriteria>;
}

/**
 * The non-covalent interactions between a posed ligand and its receptor, detected with PLIP's published
 * criteria and refinements (Salentin et al., Nucleic Acids Res. 2015): hydrophobic contacts, hydrogen bonds,
 * salt bridges, π-stacking (parallel and T-shaped), π-cation, halogen bonds and metal coordination.
 * Hydrogen bonds need explicit hydrogens on both partners (protonate the receptor and the ligand first);
 * water bridges are not detected. Pure: no I/O, deterministic order.
 */
export function profileInteractions(
  receptor: readonly StructureAtom[],
  ligand: LigandStructure,
  options: ProfileOptions = {},
): InteractionProfile {
  const c: InteractionCriteria = { ...PLIP_CRITERIA, ...options.criteria };
  const isMetal = (element: string) => METAL_ELEMENTS.has(element.toUpperCase());
  const lig = typeLigand(ligand, isMetal, c.aromaticPlanarity);
  const lpos = (i: number): Vec3 => ligand.atoms[i]?.position ?? [0, 0, 0];
  const rec = typeReceptor(receptor, lig.heavyAtoms.map(lpos), {
    bindingSiteDistance: c.bindingSiteDistance,
    isMetal,
    aromaticPlanarity: c.aromaticPlanarity,
  });
  const rpos = (serial: number): Vec3 => rec.atoms.get(serial)?.position ?? [0, 0, 0];
  const ctx: Context = { c, lig, rec, lpos, rpos, lelement: (i) => ligand.atoms[i]?.element ?? "" };

  const saltLigandNegative = saltBridges(
    ctx,
    rec.charged.filter((g) => g.positive),
    lig.charged.filter((g) => !g.positive),
    true,
  );
  const saltLigandPositive = saltBridges(
    ctx,
    lig.charged.filter((g) => g.positive),
    rec.charged.filter((g) => !g.positive),
    false,
  );
  const salts = [...saltLigandNegative, ...saltLigandPositive];
  const hbonds = [...hydrogenBonds(ctx, false, salts), ...hydrogenBonds(ctx, true, salts)];
  const stacks = piStacking(ctx);
  const picat = [...piCation(ctx, true, stacks), ...piCation(ctx, false, stacks)];
  const hydrophobic = hydrophobicContacts(ctx, stacks);
  const halogen = halogenBonds(ctx);
  const metal = metalComplexes(ctx);
  const interactions: Interaction[] = [
    ...hydrophobic,
    ...hbonds,
    ...salts,
    ...stacks,
    ...picat,
    ...halogen,
    ...metal,
  ];
  return { interactions, bindingSite: rec.bindingSite };
}

interface Context {
  readonly c: InteractionCriteria;
  readonly lig: LigandFeatures;
  readonly rec: ReceptorFeatures;
  readonly lpos: (i: number) => Vec3;
  readonly rpos: (serial: number) => Vec3;
  readonly lelement: (i: number) => string;
}

const within = (c: InteractionCriteria, d: number, max: number) => c.minDistance < d && d < max;

function saltBridges(
  ctx: Context,
  positives: readonly ChargeFeature[],
  negatives: readonly ChargeFeature[],
  proteinIsPositive: boolean,
): SaltBridge[] {
  const out: SaltBridge[] = [];
  for (const p of positives) {
    for (const n of negatives) {
      const d = distance(p.center, n.center);
      if (!within(ctx.c, d, ctx.c.saltBridgeDistance)) continue;
      const protein = proteinIsPositive ? p : n;
      const ligand = proteinIsPositive ? n : p;
      out.push({
        type: "salt_bridge",
        residue: ctx.rec.residueOf(protein.atoms[0] ?? 0),
        ligandAtoms: ligand.atoms,
        receptorAtoms: protein.atoms,
        distance: d,
        proteinIsPositive,
        ligandGroup: ligand.group,
      });
    }
  }
  return out;
}

/**
 * Hydrogen bonds (PLIP): donor–acceptor distance and D–H···A angle; a donor and acceptor whose groups
 * already form a salt bridge are not also an H-bond; each donor atom keeps only its bond with the largest
 * angle.
 */
function hydrogenBonds(ctx: Context, proteinIsDonor: boolean, salts: readonly SaltBridge[]): HydrogenBond[] {
  const { c, lig, rec, lpos, rpos } = ctx;
  const acceptors = proteinIsDonor ? lig.acceptors : rec.acceptors;
  const donors = proteinIsDonor ? rec.donors : lig.donors;
  const apos = proteinIsDonor ? lpos : rpos;
  const dpos = proteinIsDonor ? rpos : lpos;
  const best = new Map<number, HydrogenBond>();
  for (const a of acceptors) {
    for (const { donor, hydrogen } of donors) {
      const dAD = distance(apos(a), dpos(donor));
      if (!within(c, dAD, c.hbondDistance)) continue;
      const angle = angleBetween(sub(dpos(donor), dpos(hydrogen)), sub(apos(a), dpos(hydrogen)));
      if (!(angle > c.hbondDonorAngle)) continue;
      const ligandAtom = proteinIsDonor ? a : donor;
      const proteinAtom = proteinIsDonor ? donor : a;
      const inSalt = salts.some(
        (s) => s.ligandAtoms.includes(ligandAtom) && s.receptorAtoms.includes(proteinAtom),
      );
      if (inSalt) continue;
      const previous = best.get(donor);
      if (previous !== undefined && !(previous.angle < angle)) continue;
      const proteinName = rec.atoms.get(proteinAtom)?.name ?? "";
      best.set(donor, {
        type: "hydrogen_bond",
        residue: rec.residueOf(proteinAtom),
        ligandAtoms: [ligandAtom],
        receptorAtoms: [proteinAtom],
        distance: dAD,
        distanceHA: distance(apos(a), dpos(hydrogen)),
        angle,
        proteinIsDonor,
        sidechain: !["N", "CA", "C", "O", "OXT"].includes(proteinName),
      });
    }
  }
  return [...best.values()];
}

function piStacking(ctx: Context): PiStacking[] {
  const { c, lig, rec } = ctx;
  const out: PiStacking[] = [];
  for (const r of rec.rings) {
    for (const l of lig.rings) {
      const d = distance(r.center, l.center);
      if (!within(c, d, c.piStackDistance)) continue;
      const angle = planeAngle(r.normal, l.normal);
      const offset = Math.min(
        inPlaneOffset(l.normal, l.center, r.center),
        inPlaneOffset(r.normal, r.center, l.center),
      );
      if (!(offset < c.piStackOffset)) continue;
      let stacking: "parallel" | "t_shaped" | null = null;
      if (angle > 0 && angle < c.piStackAngleDeviation) stacking = "parallel";
      if (angle > 90 - c.piStackAngleDeviation && angle < 90 + c.piStackAngleDeviation) stacking = "t_shaped";
      if (stacking === null) continue;
      out.push({
        type: "pi_stacking",
        residue: rec.residueOf(r.atoms[0] ?? 0),
        ligandAtoms: l.atoms,
        receptorAtoms: r.atoms,
        distance: d,
        angle,
        offset,
        stacking,
      });
    }
  }
  return out;
}

/**
 * π-cation (PLIP): charge centre within 6 Å of a ring centroid and projecting within 2 Å of it. A ligand
 * tertiary amine counts only when its plane is within 30° of the ring's (no contact "through" the amine),
 * and, as in PLIP, the first such amine ends the search for that ring. A ligand ring stacked on a His ring
 * is not also a π-cation with a protein charge.
 */
function piCation(ctx: Context, proteinIsCharged: boolean, stacks: readonly PiStacking[]): PiCation[] {
  const { c, lig, rec, lpos } = ctx;
  const rings: readonly RingFeature[] = proteinIsCharged ? lig.rings : rec.rings;
  const charges = (proteinIsCharged ? rec.charged : lig.charged).filter((g) => g.positive);
  const out: PiCation[] = [];
  for (const ring of rings) {
    for (const p of charges) {
      const d = distance(ring.center, p.center);
      const offset = inPlaneOffset(ring.normal, ring.center, p.center);
      if (!within(c, d, c.piCationDistance) || !(offset < c.piStackOffset)) continue;
      const protein = proteinIsCharged ? p.atoms : ring.atoms;
      const ligand = proteinIsCharged ? ring.atoms : p.atoms;
      const contact: PiCation = {
        type: "pi_cation",
        residue: rec.residueOf(protein[0] ?? 0),
        ligandAtoms: ligand,
        receptorAtoms: protein,
        distance: d,
        offset,
        proteinIsCharged,
        ligandGroup: proteinIsCharged ? "aromatic" : p.group,
      };
      if (!proteinIsCharged && p.group === "tertamine") {
        const nb = lig.amineNeighbors.get(p.atoms[0] ?? -1) ?? [];
        const [n0, n1, n2] = nb.map(lpos);
        if (n0 !== undefined && n1 !== undefined && n2 !== undefined) {
          const amineNormal = cross(sub(n1, n0), sub(n0, n2));
          if (planeAngle(ring.normal, amineNormal) <= 30) out.push(contact);
        }
        break;
      }
      out.push(contact);
    }
  }
  if (!proteinIsCharged) return out;
  return out.filter(
    (p) => !stacks.some((s) => s.residue.resName === "HIS" && sameAtoms(s.ligandAtoms, p.ligandAtoms)),
  );
}

function sameAtoms(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Hydrophobic contacts with PLIP's three reductions: none between rings that stack; per ligand atom and
 * residue number the closest only; per protein atom touching several ligand atoms, the closest of each
 * bonded patch of ligand atoms (a lone contact atom of such a protein atom is dropped, as in PLIP).
 */
function hydrophobicContacts(ctx: Context, stacks: readonly PiStacking[]): HydrophobicContact[] {
  const { c, lig, rec, lpos, rpos } = ctx;
  let contacts: HydrophobicContact[] = [];
  for (const p of rec.hydrophobic) {
    for (const l of lig.hydrophobic) {
      const d = distance(rpos(p), lpos(l));
      if (!within(c, d, c.hydrophobicDistance)) continue;
      contacts.push({
        type: "hydrophobic",
        residue: rec.residueOf(p),
        ligandAtoms: [l],
        receptorAtoms: [p],
        distance: d,
      });
    }
  }
  contacts = contacts.filter(
    (h) =>
      !stacks.some(
        (s) =>
          s.receptorAtoms.includes(h.receptorAtoms[0] ?? -1) &&
          s.ligandAtoms.includes(h.ligandAtoms[0] ?? -1),
      ),
  );
  const closestPerResidue = new Map<string, HydrophobicContact>();
  for (const h of contacts) {
    const key = `${h.ligandAtoms[0]}:${h.residue.resSeq}`;
    const previous = closestPerResidue.get(key);
    if (previous === undefined || previous.distance > h.distance) closestPerResidue.set(key, h);
  }
  const byProteinAtom = new Map<number, HydrophobicContact[]>();
  for (const h of closestPerResidue.values()) {
    const key = h.receptorAtoms[0] ?? -1;
    const list = byProteinAtom.get(key);
    if (list === undefined) byProteinAtom.set(key, [h]);
    else list.push(h);
  }
  const out: HydrophobicContact[] = [];
  for (const list of byProteinAtom.values()) {
    if (list.length === 1) {
      out.push(...list);
      continue;
    }
    const atoms = new Map(list.map((h) => [h.ligandAtoms[0] ?? -1, h]));
    const parent = new Map<number, number>();
    const find = (x: number): number => {
      let r = x;
      while (parent.get(r) !== r) r = parent.get(r) ?? r;
      return r;
    };
    for (const a of atoms.keys()) {
      for (const b of lig.neighbors[a] ?? []) {
        if (!atoms.has(b)) continue;
        if (!parent.has(a)) parent.set(a, a);
        if (!parent.has(b)) parent.set(b, b);
        parent.set(find(a), find(b));
      }
    }
    const bestPerPatch = new Map<number, HydrophobicContact>();
    for (const a of parent.keys()) {
      const h = atoms.get(a);
      if (h === undefined) continue;
      const root = find(a);
      const previous = bestPerPatch.get(root);
      if (previous === undefined || h.distance < previous.distance) bestPerPatch.set(root, h);
    }
    out.push(...bestPerPatch.values());
  }
  return out;
}

function halogenBonds(ctx: Context): HalogenBond[] {
  const { c, lig, rec, lpos, rpos } = ctx;
  const out: HalogenBond[] = [];
  for (const { acceptor, partner } of rec.halogenAcceptors) {
    for (const { halogen, carbon } of lig.halogenDonors) {
      const d = distance(rpos(acceptor), lpos(halogen));
      if (!within(c, d, c.halogenDistance)) continue;
      const acceptorAngle = angleBetween(
        sub(rpos(partner), rpos(acceptor)),
        sub(lpos(halogen), rpos(acceptor)),
      );
      const donorAngle = angleBetween(sub(rpos(acceptor), lpos(halogen)), sub(lpos(carbon), lpos(halogen)));
      const dev = c.halogenAngleDeviation;
      if (!(Math.abs(acceptorAngle - c.halogenAcceptorAngle) < dev)) continue;
      if (!(Math.abs(donorAngle - c.halogenDonorAngle) < dev)) continue;
      out.push({
        type: "halogen_bond",
        residue: rec.residueOf(acceptor),
        ligandAtoms: [halogen],
        receptorAtoms: [acceptor],
        distance: d,
        donorAngle,
        acceptorAngle,
      });
    }
  }
  return out;
}

/**
 * Metal coordination within 3.0 Å (Harding 2001): a receptor metal ion with a ligand O, N or S, or a metal
 * carried by the ligand with the protein's metal-binding atoms (PLIP's list: backbone O; Asp, Glu, Ser,
 * Thr, Tyr O; His N; Cys S). PLIP reports only the second kind for a drug ligand, and fits a coordination
 * geometry, which is not done here.
 */
function metalComplexes(ctx: Context): MetalComplex[] {
  const { c, lig, rec, lpos, rpos } = ctx;
  const out: MetalComplex[] = [];
  for (const m of rec.metals) {
    for (const t of lig.heavyAtoms) {
      const e = ctx.lelement(t);
      if (e !== "O" && e !== "N" && e !== "S") continue;
      const d = distance(rpos(m), lpos(t));
      if (!(d < c.metalDistance)) continue;
      out.push({
        type: "metal_complex",
        residue: rec.residueOf(m),
        ligandAtoms: [t],
        receptorAtoms: [m],
        distance: d,
        metalIn: "receptor",
        targetIn: "ligand",
      });
    }
  }
  for (const m of lig.metals) {
    for (const t of rec.metalBinding) {
      const d = distance(lpos(m), rpos(t));
      if (!(d < c.metalDistance)) continue;
      out.push({
        type: "metal_complex",
        residue: rec.residueOf(t),
        ligandAtoms: [m],
        receptorAtoms: [t],
        distance: d,
        metalIn: "ligand",
        targetIn: "receptor",
      });
    }
  }
  return out;
}
