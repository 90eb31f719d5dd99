import { loadRDKit, parseSmiles } from "../../src/rdkit.ts";
import { molJson } from "../../src/rdkit-json.ts";
import { isotopeMassDelta } from "../../src/synthesis/isotope-mass-deltas.ts";
import { moleculeGraph } from "../../src/synthesis/molecule-graph.ts";
import { morganCounts } from "../../src/synthesis/morgan-counts.ts";
import { connectivityInvariants } from "../../src/synthesis/morgan-invariants.ts";
import { type SaProfile, saProfile } from "../../src/synthesis/sa-profile.ts";

/**
 * Our side of the SA score comparisons (the fast test on stored native answers and the validation
 * test against native RDKit): the radius-2 Morgan environment counts of the TypeScript port and the
 * SA profile of one SMILES; null when RDKit WebAssembly cannot parse it.
 */
export async function saProfileOf(
  smiles: string,
): Promise<{ ids: Record<string, number>; profile: SaProfile } | null> {
  const rdkit = await loadRDKit();
  const parsed = parseSmiles(rdkit, smiles);
  if (!("mol" in parsed)) return null;
  try {
    const graph = moleculeGraph(molJson(parsed.mol));
    const counts = morganCounts(graph, connectivityInvariants(graph, isotopeMassDelta), 2);
    const ids = Object.fromEntries([...counts].sort((a, b) => a[0] - b[0]).map(([id, n]) => [String(id), n]));
    return { ids, profile: saProfile(parsed.mol) };
  } finally {
    parsed.mol.delete();
  }
}
