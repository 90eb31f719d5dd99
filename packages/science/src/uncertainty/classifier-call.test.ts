import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TDC_DATASETS } from "../admet/tdc-datasets.ts";
import { readTdcModelFile } from "../admet/tdc-model.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";
import { type ConformalLabel, classifierCall } from "./classifier-call.ts";

/** The Mondrian set as classifyTdc builds it from a model file's quantiles. */
function mondrianSet(p: number, q0: number, q1: number): ConformalLabel[] {
  const set: ConformalLabel[] = [];
  if (1 - p <= q1) set.push("positive");
  if (p <= q0) set.push("negative");
  return set;
}

describe("one call per classifier output: never against its own conformal set (issue 36 item 4)", () => {
  it("property: over 100,000 seeded (probability, threshold, set) draws, no call is positive with a set other than {positive} or below the threshold, and none is negative with a set other than {negative} or at/above it", () => {
    const random = mulberry32(36_4);
    const sets: ConformalLabel[][] = [[], ["positive"], ["negative"], ["positive", "negative"]];
    for (let draw = 0; draw < 100_000; draw++) {
      const p = random();
      const threshold = 0.05 + 0.9 * random();
      const set = sets[Math.floor(random() * sets.length)] as ConformalLabel[];
      const call = classifierCall(p, threshold, set);
      if (call === "positive") {
        assert.deepEqual(set, ["positive"], `p ${p}`);
        assert.ok(p >= threshold);
      }
      if (call === "negative") {
        assert.deepEqual(set, ["negative"], `p ${p}`);
        assert.ok(p < threshold);
      }
    }
  });

  it("every checked-in classifier's conformal quantiles, swept over probabilities 0 to 1: each call agrees with its set, and both labels in the set is uncertain", () => {
    for (const dataset of TDC_DATASETS.filter((d) => d.task === "classification")) {
      const file = readTdcModelFile(dataset.key);
      const conformal = file.conformal;
      assert.equal(conformal.kind, "mondrian", dataset.key);
      if (conformal.kind !== "mondrian") continue;
      const threshold = file.threshold ?? 0.5;
      for (let i = 0; i <= 1000; i++) {
        const p = i / 1000;
        const set = mondrianSet(p, conformal.q0, conformal.q1);
        const call = classifierCall(p, threshold, set);
        if (set.length !== 1) assert.equal(call, "uncertain", `${dataset.key} p ${p} set ${set}`);
        if (call === "positive") assert.deepEqual(set, ["positive"], `${dataset.key} p ${p}`);
        if (call === "negative") assert.deepEqual(set, ["negative"], `${dataset.key} p ${p}`);
      }
    }
  });

  it("the cases the issue observed: p 0.38 with set {positive} (lisinopril, CYP2D6) and p 0.65 with set {negative} (dofetilide, hERG) are uncertain, not confident calls", () => {
    assert.equal(classifierCall(0.38, 0.5, ["positive"]), "uncertain");
    assert.equal(classifierCall(0.65, 0.5, ["negative"]), "uncertain");
    assert.equal(classifierCall(0.93, 0.5, ["positive"]), "positive");
    assert.equal(classifierCall(0.1, 0.5, ["negative"]), "negative");
    assert.equal(classifierCall(0.7, 0.5, ["positive", "negative"]), "uncertain");
    assert.equal(classifierCall(0.7, 0.5, []), "uncertain");
  });
});
