import { parseSmiles, type RDKit } from "../rdkit.ts";
import { murckoScaffoldSmiles } from "./murcko-scaffold.ts";

/**
 * The Bemis–Murcko scaffold of each SMILES as a grouping key for scaffold-grouped validation.
 * Decision: a molecule without rings (scaffold "") is a group of its own, not one group of all
 * acyclic molecules — they share no ring system, and one "acyclic" fold would test the step from
 * cyclic to acyclic chemistry rather than scaffold novelty. A SMILES RDKit refuses is its own group.
 */
export function scaffoldGroupKeys(rdkit: RDKit, smiles: readonly string[]): string[] {
  return smiles.map((s, i) => {
    const parsed = parseSmiles(rdkit, s);
    if (!("mol" in parsed)) return `unparsed:${i}`;
    try {
      const scaffold = murckoScaffoldSmiles(rdkit, parsed.mol);
      return scaffold === "" ? `acyclic:${i}` : scaffold;
    } catch {
      return `no-scaffold:${i}`;
    } finally {
      parsed.mol.delete();
    }
  });
}
