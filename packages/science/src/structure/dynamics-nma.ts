import type { MethodCard } from "../analysis-module.ts";
import { pearson } from "../numeric/pearson.ts";
import { selectCalphas } from "./amino-acids.ts";
import { buildAnmHessian } from "./anm-hessian.ts";
import { computeNormalModes, squareFluctuations } from "./anm-modes.ts";
import { isInBox, nearestDistance, type PocketBox } from "./pocket.ts";
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
 * The most Cα atoms one structure may have, from a 10-minute CPU budget. Only the 20 modes needed are
 * computed (shift-invert block Lanczos on an envelope Cholesky of H + σI, anm-modes.ts), whose CPU
 * grows as about N^2.4 on compact assemblies: 0.6–0.9 s at 1,070 Cα, 4.4–6 s at 2,236, 19.6 s at 5,540,
 * 107 s at 11,080 Cα (803 MiB), unfinished after 12 min at 22,160 (block of 6), on one shared core
 * (`npm run bench -- nma --curve`); 15,000 Cα projects to about 4 min and 1.3 GB, inside the budget
 * with room for a slower core.
 */
export const MAX_CALPHAS = 15000;
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
      reason: `${calphas.length} Cα atoms, more than the ${MAX_CALPHAS} a 10-minute CPU budget allows (the CPU grows as about N^2.4)`,
      calpha_count: calphas.length,
    };
  }
  const nodes = calphas.map((atom) => atom.position);
  const modes = computeNormalModes(buildAnmHessian(nodes, ANM_CUTOFF_ANGSTROM, ANM_GAMMA), ANM_MODES);
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
    "(square fluctuation in the structure's top quartile). Only the modes needed are computed: the Hessian is built " +
    "sparse (cell list), H + σI is factored once (envelope Cholesky, reverse Cuthill–McKee order) and shift-invert " +
    "block Lanczos with full reorthogonalisation, the rigid-body motions deflated and a seeded start block, finds the " +
    "lowest modes (the method of ARPACK's eigsh with sigma); networks of at most 100 Cα use the dense solver.",
  citations: [
    "Atilgan AR, Durell SR, Jernigan RL, Demirel MC, Keskin O, Bahar I. Anisotropy of fluctuation dynamics of proteins with an elastic network model. Biophys J. 2001;80(1):505-515",
    "Bakan A, Meireles LM, Bahar I. ProDy: protein dynamics inferred from theory and experiments. Bioinformatics. 2011;27(11):1575-1577",
    "Ericsson T, Ruhe A. The spectral transformation Lanczos method for the numerical solution of large sparse generalized symmetric eigenvalue problems. Math Comput. 1980;35(152):1251-1268 (shift-invert Lanczos)",
    "Golub GH, Underwood R. The block Lanczos method for computing eigenvalues. In: Rice JR, ed. Mathematical Software III. Academic Press; 1977:361-377",
    "Buttenschoen M, Morris GM, Deane CM. PoseBusters: AI-based docking methods fail to generate physically valid poses or generalise to novel sequences. Chem Sci. 2024;15:3130-3139 (the test structures)",
  ],
  data: ["posebusters/"],
  validation:
    "ProDy 2.3.1 (Debian python3-prody) ANM with the same cutoff and γ on the shared PoseBusters structures: " +
    "eigenvalues and square fluctuations correlate with r ≥ 0.999 on every structure (docs/science.md, dynamics_nma table, regenerated by dynamics-nma.validation.test.ts); " +
    "`npm run bench -- nma` repeats the comparison with CPU time on PoseBusters receptors of 384 to 2,236 Cα (ours 0.84×, 0.65×, 0.21× and 0.15× ProDy's CPU at 384, 574, 1,070 and 2,236 Cα, r = 1.000000).",
  limits:
    "A coarse-grained harmonic model around one conformation: it ranks which parts move most, not how far in " +
    "time or energy; no side chains, ligand or solvent; fluctuations are relative (units of kT/γ). Structures with more " +
    `than ${MAX_CALPHAS} Cα atoms are not computed: the CPU grows as about N^2.4 (0.6–0.9 s at 1,070 Cα, 4.4–6 s at 2,236, ` +
    "19.6 s at 5,540, 107 s at 11,080, unfinished after 12 min at 22,160 on one shared core), and the limit keeps a structure near 4 min of a 10-minute budget; " +
    "the mobile cut-off is a rule of thumb, not a test.",
};
