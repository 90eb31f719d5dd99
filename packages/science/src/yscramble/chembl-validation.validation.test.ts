import assert from "node:assert/strict";
import { test } from "node:test";
import { packBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { loadRDKit } from "../rdkit.ts";
import { chemblSeries } from "../uncertainty/chembl-series.ts";
import { CHEMBL2321810_Y_SCRAMBLE, NEGATIVE_CONTROL_SEED } from "./chembl-validation.ts";
import { permutation, yScramble } from "./y-scramble.ts";

// Validation on data no one here wrote: ChEMBL series CHEMBL2321810 as RDKit's FreeWilson Contrib
// ships it (data/PROVENANCE.md). The real activities must beat all 100 scrambles; the same
// activities shuffled once (no structure–activity link left) must not.
test("CHEMBL2321810: ridge q² beats every one of 100 y-scrambles; a shuffled-activity control fails", async () => {
  const rdkit = await loadRDKit();
  const series = chemblSeries();
  const fingerprints = series.map((c) => {
    const bits = parentOnBits(rdkit, c.smiles);
    assert.ok(bits !== null, c.chemblId);
    return packBits(bits);
  });
  const activities = series.map((c) => c.activity);
  const real = yScramble(fingerprints, activities);
  const order = permutation(activities.length, NEGATIVE_CONTROL_SEED);
  const control = yScramble(
    fingerprints,
    order.map((i) => activities[i] ?? 0),
  );
  const v = CHEMBL2321810_Y_SCRAMBLE;
  const measured = {
    compounds: real.compounds,
    q2: round(real.model.q2),
    rmse: round(real.model.rmse),
    scrambles: real.scrambles.count,
    max_scramble_q2: round(real.scrambles.max_q2),
    mean_scramble_q2: round(real.scrambles.mean_q2),
    verdict: real.verdict,
    p_value: real.p_value,
    negative_control_q2: round(control.model.q2),
    negative_control_p_value: control.p_value,
    negative_control_verdict: control.verdict,
  };
  console.log(JSON.stringify(measured));
  assert.deepEqual(measured, { ...v });
  assert.equal(real.verdict, "pass");
  assert.ok(real.scrambles.count >= 100);
  assert.ok(real.scrambles.q2.every((q) => q < real.model.q2));
  assert.equal(control.verdict, "fail");
});

const round = (v: number) => Math.round(v * 10_000) / 10_000;
