import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { molJson, parseRDKitJson } from "../rdkit-json.ts";
import { fragmentScores } from "./fragment-scores.ts";
import { isotopeMassDelta } from "./isotope-mass-deltas.ts";
import { moleculeGraph } from "./molecule-graph.ts";
import { morganCounts } from "./morgan-counts.ts";
import { connectivityInvariants } from "./morgan-invariants.ts";
import { type SaProfile, saProfile } from "./sa-profile.ts";

async function ours(smiles: string): Promise<{ ids: Record<string, number>; profile: SaProfile } | null> {
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

describe("SA score (Ertl & Schuffenhauer 2009) over the TypeScript Morgan port", () => {
  it("the fragment table holds RDKit Contrib's 705,292 fragments", () => {
    assert.equal(fragmentScores().size, 705_292);
  });

  it("aspirin: every term reported, nearly all its fragments known", async () => {
    const result = await ours("CC(=O)Oc1ccccc1C(=O)O");
    assert.ok(result);
    const p = result.profile;
    assert.ok(p.sa_score >= 1 && p.sa_score <= 10);
    assert.equal(p.heavy_atoms, 13);
    assert.equal(p.stereocentres, 0);
    assert.equal(p.macrocycle_penalty, 0);
    assert.ok(p.fragments_known > 0.9, String(p.fragments_known));
  });

  it("refuses, with a stable code, an isotope whose mass term is unknown", () => {
    const graph = moleculeGraph(
      parseRDKitJson('{"molecules":[{"atoms":[{"z":6,"isotope":13,"impHs":4}],"bonds":[]}]}'),
    );
    assert.throws(() => connectivityInvariants(graph, () => null), { code: "SA_UNKNOWN_ISOTOPE" });
  });
});
