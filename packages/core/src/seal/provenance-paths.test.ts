import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findProvenancePathProblem } from "./provenance-paths.ts";

const hex = (char: string) => char.repeat(64);
const files = (...paths: string[]) => paths.map((path, index) => ({ path, sha256: hex(String(index % 10)) }));
const outputsOf = (...paths: string[]) => findProvenancePathProblem({ outputs: files(...paths), inputs: [] });
const inputsOf = (...paths: string[]) => findProvenancePathProblem({ outputs: [], inputs: files(...paths) });

// Issue 38 item 6: the issuer signs only subjects a run folder can hold, as svc-tree/v1 lists them.
describe("findProvenancePathProblem", () => {
  it("accepts a run's own listing: relative, NFC, sorted by UTF-8 bytes, each once", () => {
    assert.equal(
      outputsOf(
        "inputs/input_hashes.json",
        "plans/run_1_module_plan.json",
        "repro_pack/container/verify.sh",
        "results/summary.json",
        "run_manifest.json",
        "séance.json",
      ),
      null,
    );
  });

  it("refuses each observed subject no folder can hold, naming the field", () => {
    const cases: [string[], number, RegExp][] = [
      [["../../../../etc/passwd"], 0, /has a "\.\." segment/],
      [["/etc/shadow"], 0, /is absolute/],
      [["results/a.json", "seal/seal.json"], 1, /is under seal\//],
      [["results/a.json", "results/a.json"], 1, /is listed twice/],
      [["Ame\u0301lie.csv", "Am\u00e9lie.csv"], 0, /is not in Unicode NFC/],
      [["report/\u202Elmth.exe"], 0, /bidirectional formatting character/],
      [
        ["run_manifest.json", "results/summary.json"],
        1,
        /is not in svc-tree\/v1 order.*after "run_manifest\.json"/,
      ],
      [["./run_manifest.json"], 0, /has a "\." segment/],
      [["results//a.json"], 0, /empty segment/],
      [["results/"], 0, /empty segment/],
      [["results/a\u0007.json"], 0, /control character/],
      [[".scratch/report.html"], 0, /is under seal\/ \(or a scratch folder\)/],
    ];
    for (const [paths, index, problem] of cases) {
      const found = outputsOf(...paths);
      assert.equal(found?.field, `provenance.outputs.${index}.path`, paths.join(" "));
      assert.match(found?.problem ?? "", problem, paths.join(" "));
    }
  });

  it("the same path twice with two digests is refused whatever the digests say", () => {
    const found = findProvenancePathProblem({
      outputs: [
        { path: "results/a.json", sha256: hex("1") },
        { path: "results/a.json", sha256: hex("2") },
      ],
      inputs: [],
    });
    assert.equal(found?.field, "provenance.outputs.1.path");
  });

  it("names staged inputs as they are (an NFD name stays signable) but keeps them inside 01_sources, once, in order", () => {
    assert.equal(inputsOf("Ame\u0301lie.csv", "compounds.csv"), null);
    assert.equal(inputsOf("../../etc/passwd")?.field, "provenance.inputs.0.path");
    assert.equal(inputsOf("/etc/passwd")?.field, "provenance.inputs.0.path");
    assert.match(inputsOf("b.csv", "a.csv")?.problem ?? "", /svc-tree\/v1 order/);
    assert.match(inputsOf("Am\u00e9lie.csv", "Ame\u0301lie.csv")?.problem ?? "", /twice/);
    assert.match(inputsOf("a.csv", "a.csv")?.problem ?? "", /twice/);
  });
});
