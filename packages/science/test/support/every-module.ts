import type { CompoundFinding } from "../../src/analysis-module.ts";
import { inOneThread } from "../../src/define-module.ts";
import { prepareCompound } from "../../src/prepare-compound.ts";
import { loadRDKit } from "../../src/rdkit.ts";
import { IMPLEMENTED_MODULES } from "../../src/registry.ts";

/**
 * Every implemented module's finding of each compound, as the runner builds them (registry order,
 * each module seeing the findings before it); a compound's candidate id is its name.
 */
export async function findingsOfEveryModule(
  compounds: readonly { readonly name: string; readonly smiles: string }[],
): Promise<Map<string, CompoundFinding>[]> {
  const rdkit = await loadRDKit();
  const analyzers = IMPLEMENTED_MODULES.map((m) => ({ id: m.id, analyzer: inOneThread(m) }));
  return compounds.map(({ name, smiles }, at) => {
    const compound = prepareCompound(rdkit, {
      index: at + 1,
      line: at + 2,
      candidateId: name,
      name: null,
      smiles,
      metadata: {},
    });
    const findings = new Map<string, CompoundFinding>();
    for (const { id, analyzer } of analyzers) findings.set(id, analyzer.analyze(compound, findings));
    return findings;
  });
}
