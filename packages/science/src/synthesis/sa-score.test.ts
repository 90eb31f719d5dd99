import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { saProfileOf } from "../../test/support/sa-profile-of.ts";
import { parseRDKitJson } from "../rdkit-json.ts";
import { fragmentScores } from "./fragment-scores.ts";
import { moleculeGraph } from "./molecule-graph.ts";
import { connectivityInvariants } from "./morgan-invariants.ts";

const ours = saProfileOf;

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
