import { findingBase } from "../analysis-module.ts";
import type { ParsedCompound } from "../define-module.ts";
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
/** The compound's staged assay values; null when it has none. */
export function activitiesOf(compound: PreparedCompound): Readonly<Record<string, number>> | null {
  const measured = compound.row.activities;
  return measured !== undefined && Object.keys(measured).length > 0 ? { ...measured } : null;
}

export function assessSar(compound: ParsedCompound): SarAssessment {
  const activities = activitiesOf(compound);
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
 * `FragmentMol` cut pattern: acyclic single bonds from a carbon), each cut indexed with the larger
 * part as the constant one (both ways round when the parts are equal): a matched pair is a small
 * change on a shared larger context, so a methyl shared by two unrelated molecules is no pair. The two parts are taken as RDKit writes them: each
 * part of its canonical SMILES is the part's own canonical SMILES (0 of 29,872 parts differed on
 * CHEMBL2321810 and 1,500 NCI molecules; sar-explorer.validation.test.ts compares the parts with native
 * rdMMPA's, re-canonicalised). A molecule with no cuttable bond, or more than MAX_CUT_BONDS,
 * gives none.
 */
export function singleCuts(_rdkit: RDKit, mol: Mol): SingleCut[] {
  type List = { size(): number; at(i: number): Mol | null; delete(): void } | null;
  const frags = mol.get_mmpa_frags(1, 1, MAX_CUT_BONDS) as { cores: List; sidechains: List };
  const cuts: SingleCut[] = [];
  try {
    const sidechains = frags.sidechains;
    for (let i = 0; sidechains !== null && i < sidechains.size(); i++) {
      const pieces = sidechains.at(i);
      if (pieces === null) continue;
      let smiles: string;
      try {
        smiles = pieces.get_smiles();
      } finally {
        pieces.delete();
      }
      const [a, b, extra] = smiles.split(".");
      if (a === undefined || b === undefined || extra !== undefined) continue;
      const [heavyA, heavyB] = [heavyAtoms(a), heavyAtoms(b)];
      // The part that changes is never larger than the part kept (both ways round on a tie).
      if (heavyB <= heavyA) cuts.push({ context: a, variable: b, context_heavy_atoms: heavyA });
      if (heavyA <= heavyB) cuts.push({ context: b, variable: a, context_heavy_atoms: heavyB });
    }
  } finally {
    const cores = frags.cores;
    for (let i = 0; cores !== null && i < cores.size(); i++) cores.at(i)?.delete();
    cores?.delete();
    frags.sidechains?.delete();
  }
  return cuts;
}

/** SMILES atoms: bracket atoms, the organic subset (two-letter symbols first), aromatic forms. */
const ATOM = /\[[^\]]*\]|Br|Cl|[BCNOPSFI*]|[bcnops]/g;

/** Heavy atoms of a SMILES: every atom except dummies (`*`, `[*:1]`) and hydrogen brackets. */
export function heavyAtoms(smiles: string): number {
  let count = 0;
  for (const [token] of smiles.matchAll(ATOM)) {
    if (token === "*" || token.startsWith("[*") || /^\[\d*H[^a-z]*\]$/.test(token)) continue;
    count++;
  }
  return count;
}
