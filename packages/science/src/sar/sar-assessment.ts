import { findingBase, unparseableFinding } from "../analysis-module.ts";
import { morganOnBits } from "../fingerprint/morgan.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "../scaffold/murcko-scaffold.ts";
import type { SarCompound, SingleCut } from "./sar-compound.ts";

export const SAR_ID = "sar_explorer";

/**
 * RDKit's `FragmentMol` default: a molecule with more cuttable bonds than this gives no
 * fragments (its matched pairs are then missing, counted in the summary).
 */
export const MAX_CUT_BONDS = 20;

export interface SarFinding {
  readonly candidate_id: string;
  readonly evidence_id: string;
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Bemis–Murcko scaffold of the parent, canonical SMILES; null without a ring or when not assessed. */
  readonly murcko_scaffold: string | null;
  /** The measured activities (assay id → p value) the analysis used; null when none were staged. */
  readonly activities: Readonly<Record<string, number>> | null;
}

/** The worker's output: the finding, and for a measured compound what pairing needs. */
export interface SarAssessment {
  readonly finding: SarFinding;
  readonly pairing: SarCompound | null;
}

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
export function assessSar(compound: PreparedCompound): SarAssessment {
  const measured = compound.row.activities;
  const activities = measured !== undefined && Object.keys(measured).length > 0 ? { ...measured } : null;
  if (!compound.ok) {
    return {
      finding: { ...unparseableFinding(SAR_ID, compound), murcko_scaffold: null, activities },
      pairing: null,
    };
  }
  return withParentMol(compound, (mol, rdkit) => {
    let scaffold: string | null = null;
    let reason: string | null = null;
    try {
      scaffold = murckoScaffoldSmiles(rdkit, mol) || null;
    } catch (error) {
      // A wasm fault leaves RDKit unusable: the worker is replaced (runner pool), not hidden here.
      if ((error as Error).name === "RuntimeError") throw error;
      reason = `${(error as { code?: string }).code ?? "SCAFFOLD_UNBUILDABLE"}: ${(error as Error).message}`;
    }
    const finding: SarFinding = {
      ...findingBase(SAR_ID, compound),
      status: "assessed",
      reason,
      murcko_scaffold: scaffold,
      activities,
    };
    if (activities === null) return { finding, pairing: null };
    return {
      finding,
      pairing: {
        index: compound.row.index,
        candidate_id: compound.row.candidateId,
        murcko_scaffold: scaffold,
        activities,
        morgan_on_bits: morganOnBits(mol),
        cuts: singleCuts(rdkit, mol),
      },
    };
  });
}

/**
 * Hussain & Rea single cuts with RDKit's MMPA fragmenter (`get_mmpa_frags`, the rdMMPA
 * `FragmentMol` cut pattern: acyclic single bonds from a carbon), each cut indexed both ways
 * round: either part may be the constant one.
 */
export function singleCuts(rdkit: RDKit, mol: Mol): SingleCut[] {
  const frags = mol.get_mmpa_frags(1, 1, MAX_CUT_BONDS) as {
    cores: { size(): number; at(i: number): Mol | null; delete(): void };
    sidechains: { size(): number; at(i: number): Mol | null; delete(): void };
  };
  const cuts: SingleCut[] = [];
  try {
    for (let i = 0; i < frags.sidechains.size(); i++) {
      const pieces = frags.sidechains.at(i);
      if (pieces === null) continue;
      let smiles: string;
      try {
        smiles = pieces.get_smiles();
      } finally {
        pieces.delete();
      }
      const parts = smiles.split(".");
      if (parts.length !== 2) continue;
      const [a, b] = parts.map((part) => canonicalPiece(rdkit, part));
      if (a === null || b === null || a === undefined || b === undefined) continue;
      cuts.push({ context: a.smiles, variable: b.smiles, context_heavy_atoms: a.heavy });
      cuts.push({ context: b.smiles, variable: a.smiles, context_heavy_atoms: b.heavy });
    }
  } finally {
    for (let i = 0; i < frags.cores.size(); i++) frags.cores.at(i)?.delete();
    frags.cores.delete();
    frags.sidechains.delete();
  }
  return cuts;
}

/**
 * Canonical pieces already seen in this thread: side chains and cores repeat across a series, and
 * a piece's canonical form depends only on its SMILES, so the cache never changes a result. Cleared
 * when full, which bounds it.
 */
const pieceCache = new Map<string, { smiles: string; heavy: number } | null>();
const PIECE_CACHE_SIZE = 20_000;

/** A cut part on its own, canonical, with its heavy atoms (the one dummy atom not counted). */
function canonicalPiece(rdkit: RDKit, smiles: string): { smiles: string; heavy: number } | null {
  const cached = pieceCache.get(smiles);
  if (cached !== undefined) return cached;
  const mol = rdkit.get_mol(smiles);
  let piece: { smiles: string; heavy: number } | null = null;
  try {
    if (mol?.is_valid()) piece = { smiles: mol.get_smiles(), heavy: mol.get_num_atoms() - 1 };
  } finally {
    mol?.delete();
  }
  if (pieceCache.size >= PIECE_CACHE_SIZE) pieceCache.clear();
  pieceCache.set(smiles, piece);
  return piece;
}
