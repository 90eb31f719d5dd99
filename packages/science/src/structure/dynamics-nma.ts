import type { MethodCard } from "../analysis-module.ts";
import { pearson } from "../numeric/pearson.ts";
import { selectCalphas } from "./amino-acids.ts";
import { buildAnmHessian } from "./anm-hessian.ts";
import { computeNormalModes, squareFluctuations } from "./anm-modes.ts";
import { isInBox, nearestDistance, type PocketBox, pointOf } from "./pocket.ts";
import type { ParsedStructure } from "./structure-atom.ts";
import type { Vec3 } from "./vec3.ts";

/** ProDy 2.3's `ANM.buildHessian` defaults, stated. */
export const ANM_CUTOFF_ANGSTROM = 15;
export const ANM_GAMMA = 1;
/** ProDy's `calcModes` default: the 20 lowest non-zero modes. */
export const ANM_MODES = 20;
/** A Cα within this distance of a reference-ligand heavy atom makes its residue a pocket residue. */
export const POCKET_RADIUS_ANGSTROM = 8;
/**
 * The most Cα atoms one structure may have: the dense eigen-solver computes every mode, (3N)³ work
 * (19 s at 574 Cα on a shared core here, so about 1.5 min at 1,000); a larger structure is reported, not computed.
 */
export const MAX_CALPHAS = 1000;
/** A pocket residue is mobile when its square fluctuation is in the structure's top quartile. */
export const MOBILE_QUANTILE = 0.75;

/** Where the pocket is: around a reference ligand's heavy atoms, or inside a box. */
export type NmaPocket =
  | { readonly kind: "ligand"; readonly label: string; readonly atoms: readonly Vec3[] }
  | { readonly kind: "box"; readonly box: PocketBox };

export interface PocketResidue {
  readonly chain: string;
  readonly res_name: string;
  readonly res_seq: number;
  readonly i_code: string;
  readonly square_fluctuation: number;
  /** Share of the structure's Cα atoms with a smaller square fluctuation, 0–1. */
  readonly percentile: number;
  readonly mobile: boolean;
}

export type DynamicsNmaResult =
  | {
      readonly status: "executed";
      readonly calpha_count: number;
      readonly chains: readonly string[];
      readonly zero_modes: number;
      readonly eigenvalues: readonly number[];
      readonly square_fluctuations: readonly {
        readonly chain: string;
        readonly res_seq: number;
        readonly i_code: string;
        readonly value: number;
      }[];
      /** Pearson r of square fluctuations and Cα B-factors; null when the file has no varying B-factors. */
      readonly bfactor_correlation: number | null;
      readonly pocket: {
        readonly defined_by: string;
        readonly rule: string;
        readonly residues: readonly PocketResidue[];
        readonly mobile_count: number;
      } | null;
    }
  | { readonly status: "not_assessed"; readonly reason: string; readonly calpha_count: number };

const round = (value: number, digits = 6) => Number(value.toPrecision(digits));

/**
 * dynamics_nma for one structure (pure): the ANM of its Cα atoms (Atilgan et al. 2001; cutoff and γ
 * above), the lowest modes, per-residue square fluctuations, their correlation with the
 * crystallographic B-factors, and which pocket residues are mobile by the stated rule.
 */
export function analyseDynamicsNma(structure: ParsedStructure, pocket: NmaPocket | null): DynamicsNmaResult {
  const calphas = selectCalphas(structure);
  if (calphas.length < 3) {
    return {
      status: "not_assessed",
      reason: `${calphas.length} Cα atoms: too few for a network`,
      calpha_count: calphas.length,
    };
  }
  if (calphas.length > MAX_CALPHAS) {
    return {
      status: "not_assessed",
      reason: `${calphas.length} Cα atoms, more than the ${MAX_CALPHAS} the dense eigen-solver is allowed here`,
      calpha_count: calphas.length,
    };
  }
  const nodes = calphas.map(pointOf);
  const modes = computeNormalModes(
    buildAnmHessian(nodes, ANM_CUTOFF_ANGSTROM, ANM_GAMMA),
    3 * nodes.length,
    ANM_MODES,
  );
  const flucts = squareFluctuations(modes, nodes.length);
  const sorted = [...flucts].sort((a, b) => a - b);
  const threshold = sorted[Math.floor(MOBILE_QUANTILE * (sorted.length - 1))] ?? 0;
  const percentileOf = (value: number) => sorted.filter((other) => other < value).length / sorted.length;
  const inPocket = (at: number): boolean => {
    if (pocket === null) return false;
    const point = nodes[at] as Vec3;
    return pocket.kind === "box"
      ? isInBox(pocket.box, point)
      : nearestDistance(point, pocket.atoms) <= POCKET_RADIUS_ANGSTROM;
  };
  const residues: PocketResidue[] = [];
  calphas.forEach((atom, at) => {
    if (!inPocket(at)) return;
    const value = flucts[at] ?? 0;
    residues.push({
      chain: atom.chain,
      res_name: atom.resName,
      res_seq: atom.resSeq,
      i_code: atom.iCode,
      square_fluctuation: round(value),
      percentile: Math.round(percentileOf(value) * 1000) / 1000,
      mobile: value > threshold,
    });
  });
  const r = pearson(
    flucts,
    calphas.map((atom) => atom.bFactor),
  );
  return {
    status: "executed",
    calpha_count: calphas.length,
    chains: [...new Set(calphas.map((atom) => atom.chain))],
    zero_modes: modes.zeroModes,
    eigenvalues: modes.eigenvalues.map((value) => round(value)),
    square_fluctuations: calphas.map((atom, at) => ({
      chain: atom.chain,
      res_seq: atom.resSeq,
      i_code: atom.iCode,
      value: round(flucts[at] ?? 0),
    })),
    bfactor_correlation: r === null ? null : Math.round(r * 1000) / 1000,
    pocket:
      pocket === null
        ? null
        : {
            defined_by: pocket.kind === "box" ? "box" : `reference ligand ${pocket.label}`,
            rule:
              (pocket.kind === "box"
                ? "pocket residue: its Cα inside the box"
                : `pocket residue: its Cα within ${POCKET_RADIUS_ANGSTROM} Å of a reference-ligand heavy atom`) +
              `; mobile: its square fluctuation above the structure's ${MOBILE_QUANTILE * 100}th percentile (top quartile of all Cα)`,
            residues,
            mobile_count: residues.filter((residue) => residue.mobile).length,
          },
  };
}

export const DYNAMICS_NMA_METHOD: MethodCard = {
  what:
    `Anisotropic network model (ANM) of each staged structure's Cα atoms: springs of γ = ${ANM_GAMMA} between Cα pairs ` +
    `within ${ANM_CUTOFF_ANGSTROM} Å (ProDy's defaults), the ${ANM_MODES} lowest non-zero normal modes, per-residue ` +
    `square fluctuations from them, their Pearson correlation with the crystallographic B-factors, and the pocket ` +
    `residues (Cα within ${POCKET_RADIUS_ANGSTROM} Å of the reference ligand, or inside the box) that are mobile ` +
    "(square fluctuation in the structure's top quartile).",
  citations: [
    "Atilgan AR, Durell SR, Jernigan RL, Demirel MC, Keskin O, Bahar I. Anisotropy of fluctuation dynamics of proteins with an elastic network model. Biophys J. 2001;80(1):505-515",
    "Bakan A, Meireles LM, Bahar I. ProDy: protein dynamics inferred from theory and experiments. Bioinformatics. 2011;27(11):1575-1577",
    "Buttenschoen M, Morris GM, Deane CM. PoseBusters: AI-based docking methods fail to generate physically valid poses or generalise to novel sequences. Chem Sci. 2024;15:3130-3139 (the test structures)",
  ],
  data: ["posebusters/"],
  validation:
    "ProDy 2.3.1 (Debian python3-prody) ANM with the same cutoff and γ on the shared PoseBusters structures: " +
    "eigenvalues and square fluctuations correlate with r ≥ 0.99 on every structure (docs/science.md, dynamics_nma table, regenerated by dynamics-nma.test.ts).",
  limits:
    "A coarse-grained harmonic model around one conformation: it ranks which parts move most, not how far in " +
    "time or energy; no side chains, ligand or solvent; fluctuations are relative (units of kT/γ). Structures with more " +
    `than ${MAX_CALPHAS} Cα atoms are not computed (dense eigen-solver); the mobile cut-off is a rule of thumb, not a test.`,
};
