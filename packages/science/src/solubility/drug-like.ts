import { molDescriptors } from "../parent/mol-memo.ts";
import type { Mol, RDKit } from "../rdkit.ts";

/** The rule {@link isDrugLike} applies, as the method card states it. */
export const DRUG_LIKE_RULE = "parent MW 200–600 Da, at least one ring, at least one N or O";

const nitrogenOrOxygen = new WeakMap<RDKit, Mol>();

/**
 * The drug-like subset the solubility figures are reported on (issue 36 item 9): the small-molecule
 * drug space of Lipinski's MW limit widened to 600 (beyond-rule-of-5 orals reach it), a ring, and a
 * polar N or O — which leaves out the solvents, alkanes, halocarbons and simple aromatics that fill
 * the public solubility sets. A project rule for reporting, not a published filter.
 */
export function isDrugLike(rdkit: RDKit, mol: Mol): boolean {
  let query = nitrogenOrOxygen.get(rdkit);
  if (query === undefined) {
    const created = rdkit.get_qmol("[#7,#8]");
    if (created === null) throw new Error("N/O atom query does not parse");
    query = created;
    nitrogenOrOxygen.set(rdkit, query);
  }
  const d = molDescriptors(mol);
  const mw = d.amw ?? 0;
  return mw >= 200 && mw <= 600 && (d.NumRings ?? 0) >= 1 && mol.get_substruct_match(query) !== "{}";
}
