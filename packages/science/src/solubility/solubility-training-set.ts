import { type TdcFeatures, tdcFeatures } from "../admet/tdc-features.ts";
import type { RDKit } from "../rdkit.ts";
import type { AqSolDbCompound } from "./aqsoldb-set.ts";
import { isDrugLike } from "./drug-like.ts";
import { type SolubilityDescriptors, solubilityDescriptors } from "./solubility-descriptors.ts";

/** One training compound: a parent with the mean log S of every AqSolDB row that has it as parent. */
export interface SolubilityTrainingCompound {
  readonly parent: string;
  /** Row indexes (0-based, header excluded) of the AqSolDB rows merged here. */
  readonly rows: readonly number[];
  readonly logS: number;
  /** Morgan radius-2 on-bits of the parent. */
  readonly bits: readonly number[];
  /** The parent's RDKit 2D descriptors in TDC_DESCRIPTORS order (the network's dense columns). */
  readonly dense: readonly number[];
  /** The ESOL and kernel descriptors of the parent (SOLUBILITY_DESCRIPTORS). */
  readonly descriptors: SolubilityDescriptors;
  /** Scaffold-CV group: the Bemis–Murcko scaffold, or `acyclic` for every ring-free parent. */
  readonly group: string;
  readonly drugLike: boolean;
}

/**
 * The scaffold-CV group of a parent's Bemis–Murcko scaffold: every acyclic parent shares one group
 * (MoleculeNet's convention, Wu et al. 2018: the empty scaffold is one scaffold), so no fold is
 * tested on acyclic compounds while others like them are in training (issue 36 item 9).
 */
export function scaffoldGroup(scaffold: string): string {
  return scaffold === "" ? "acyclic" : scaffold;
}

export interface CuratedSolubilitySet {
  readonly compounds: readonly SolubilityTrainingCompound[];
  readonly curation: {
    readonly rows: number;
    readonly refused: number;
    readonly out_of_class: number;
    readonly duplicates_merged: number;
    readonly compounds: number;
  };
}

/**
 * AqSolDB's rows as the model sees them: each SMILES through the runner's own preparation
 * (`tdcFeatures` → `prepareCompound`: salts and solvents stripped, neutralised), so a training row
 * is the parent a query's row becomes; compounds outside the organic classes are left out (the
 * module refuses them at run time) and rows sharing a parent are merged with their mean log S.
 * `features` lets a caller reuse features already computed (the fitting script's cache).
 */
export function curateSolubilitySet(
  rdkit: RDKit,
  data: readonly AqSolDbCompound[],
  features: (smiles: string) => TdcFeatures = (smiles) => tdcFeatures(rdkit, smiles),
): CuratedSolubilitySet {
  let refused = 0;
  let outOfClass = 0;
  const byParent = new Map<string, { rows: number[]; ys: number[]; f: TdcFeatures & { ok: true } }>();
  data.forEach((row, i) => {
    const f = features(row.smiles);
    if (!f.ok) {
      if (f.reason === "refused") refused++;
      else outOfClass++;
      return;
    }
    const group = byParent.get(f.parent);
    if (group === undefined) byParent.set(f.parent, { rows: [i], ys: [row.logS], f });
    else {
      group.rows.push(i);
      group.ys.push(row.logS);
    }
  });
  const compounds: SolubilityTrainingCompound[] = [];
  let merged = 0;
  for (const [parent, g] of byParent) {
    const mol = rdkit.get_mol(parent);
    if (mol === null || !mol.is_valid()) {
      mol?.delete();
      refused += g.rows.length;
      continue;
    }
    try {
      merged += g.rows.length - 1;
      compounds.push({
        parent,
        rows: g.rows,
        logS: g.ys.reduce((a, b) => a + b, 0) / g.ys.length,
        bits: g.f.bits,
        dense: g.f.x,
        descriptors: solubilityDescriptors(rdkit, mol),
        group: scaffoldGroup(g.f.scaffold),
        drugLike: isDrugLike(rdkit, mol),
      });
    } finally {
      mol.delete();
    }
  }
  return {
    compounds,
    curation: {
      rows: data.length,
      refused,
      out_of_class: outOfClass,
      duplicates_merged: merged,
      compounds: compounds.length,
    },
  };
}
