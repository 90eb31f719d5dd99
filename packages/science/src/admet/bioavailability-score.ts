import type { Mol, RDKit } from "../rdkit.ts";

/**
 * Groups mostly ionised as anions at intestinal pH (Martin, J. Med. Chem. 2005, 48, 3164: the
 * score splits anions from neutral molecules, cations and zwitterions): carboxylic acids and
 * carboxylates, NH-tetrazoles, acylsulfonamides.
 */
export const ANION_SMARTS = ["[CX3](=O)[OX1H0-,OX2H1]", "c1nn[nH]n1", "c1nnn[nH]1", "C(=O)[NH]S(=O)(=O)"];

const queries = new WeakMap<RDKit, Mol[]>();

export function isAnionic(rdkit: RDKit, mol: Mol): boolean {
  let compiled = queries.get(rdkit);
  if (compiled === undefined) {
    compiled = ANION_SMARTS.map((smarts) => {
      const q = rdkit.get_qmol(smarts);
      if (q === null) throw new Error(`anion SMARTS does not parse: ${smarts}`);
      return q;
    });
    queries.set(rdkit, compiled);
  }
  return compiled.some((q) => mol.get_substruct_match(q) !== "{}");
}

/**
 * Abbott bioavailability score (Martin 2005): the probability class of F > 10% in rat. Anions by
 * TPSA: ≤ 75 Å² 0.85, < 150 Å² 0.56, else 0.11; other molecules: 0.55 when they pass Lipinski's
 * rule of five (at most one violation), else 0.17.
 */
export function abbottScore(
  anionic: boolean,
  tpsa: number,
  passesLipinski: boolean,
): 0.11 | 0.17 | 0.55 | 0.56 | 0.85 {
  if (anionic) return tpsa <= 75 ? 0.85 : tpsa < 150 ? 0.56 : 0.11;
  return passesLipinski ? 0.55 : 0.17;
}
