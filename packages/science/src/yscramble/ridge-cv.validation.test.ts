import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";
import { assertNativeInCi, nativeMissing, runNative } from "../../test/support/native-rdkit.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { parentOnBits } from "../fingerprint/parent-fingerprint.ts";
import { choleskyFactor, inverseFromFactor, solveFactored } from "../numeric/cholesky.ts";
import { assignFolds, mulberry32 } from "../numeric/seeded-shuffle.ts";
import { loadRDKit } from "../rdkit.ts";
import { chemblSeries } from "../uncertainty/chembl-series.ts";
import { fingerprintGram } from "./linear-kernel.ts";
import { predictFold, q2AndRmse, refitCvPredictions, repeatedCvPredictions } from "./ridge-cv.ts";
import { percentile } from "./y-scramble.ts";

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

describe("ridge regression on fingerprints", () => {
  it("inverts the second-difference matrix to its known inverse, ¼[[3,2,1],[2,4,2],[1,2,3]]", () => {
    const a = Float64Array.from([2, -1, 0, -1, 2, -1, 0, -1, 2]);
    const inverse = inverseFromFactor(choleskyFactor(a, 3), 3);
    for (const [i, v] of [3, 2, 1, 2, 4, 2, 1, 2, 3].entries())
      close(inverse[i] ?? Number.NaN, v / 4, 1e-12, `entry ${i}`);
    // Two right-hand sides at once (columns of B): A x = (1, 0, 1) → (1, 1, 1); A x = (0, 0, 4) → (1, 2, 3).
    const x = solveFactored(choleskyFactor(a, 3), 3, Float64Array.from([1, 0, 0, 0, 1, 4]), 2);
    for (const [i, v] of [1, 1, 1, 2, 1, 3].entries()) close(x[i] ?? Number.NaN, v, 1e-12, `solution ${i}`);
  });

  it("one bit, worked by hand: β = Σx̃ỹ / (Σx̃² + λ) = 2 / (1 + 1) = 1, so a set bit predicts ȳ + 0.5", () => {
    // Training rows x = 1, 1, 0, 0 with y = 2, 4, 0, 2: x̄ = 0.5, ȳ = 2, x̃ỹ sums to 2, x̃² to 1.
    const on = packBits([0]);
    const off = packBits([]);
    const gram = fingerprintGram([on, on, off, off, on, off]);
    const predicted = new Float64Array(6);
    predictFold(gram, 6, Float64Array.from([2, 4, 0, 2, 0, 0]), 1, [0, 1, 2, 3], [4, 5], 1, predicted);
    close(predicted[4] ?? Number.NaN, 2.5, 1e-12, "bit set");
    close(predicted[5] ?? Number.NaN, 1.5, 1e-12, "bit clear");
  });

  it("the one-factorisation path equals refitting every fold (An et al. 2007), for several responses", () => {
    const random = mulberry32(7);
    const n = 60;
    const fingerprints = Array.from({ length: n }, () =>
      packBits(Array.from({ length: 2048 }, (_, b) => b).filter(() => random() < 0.02)),
    );
    const columns = 3;
    const responses = Float64Array.from({ length: n * columns }, () => random() * 4);
    const cv = { folds: 5, repeats: 2, seed: 11, lambda: 0.7 };
    const gram = fingerprintGram(fingerprints);
    const fast = repeatedCvPredictions(gram, n, responses, columns, cv);
    const refit = refitCvPredictions(gram, n, responses, columns, cv);
    for (const [r, run] of fast.entries())
      for (const [i, v] of run.entries())
        close(v, refit[r]?.[i] ?? Number.NaN, 1e-9, `repeat ${r} cell ${i}`);
  });

  it("q² and RMSE by their definitions; percentile as numpy's default (type 7)", () => {
    const { q2, rmse } = q2AndRmse([1, 2, 3, 4], [1.5, 2, 2.5, 4]);
    close(q2, 1 - 0.5 / 5, 1e-12, "q²");
    close(rmse, Math.sqrt(0.5 / 4), 1e-12, "RMSE");
    assert.throws(() => q2AndRmse([2, 2], [1, 3]), /undefined/);
    close(percentile([1, 2, 3, 4, 5], 0.95), 4.8, 1e-12, "p95");
  });

  assertNativeInCi();
  it("equals numpy's closed-form primal ridge on native RDKit fingerprints (CHEMBL2321810, 300 compounds)", {
    skip: nativeMissing ?? false,
  }, async (t) => {
    const rdkit = await loadRDKit();
    const series = chemblSeries().slice(0, 300);
    const bits = series.map((c) => parentOnBits(rdkit, c.smiles) ?? []);
    const y = series.map((c) => c.activity);
    const cv = { folds: 5, repeats: 2, seed: 5, lambda: 1 };
    const folds = Array.from({ length: cv.repeats }, (_, r) => assignFolds(y.length, cv.folds, cv.seed + r));
    const dir = await makeTempDir("svc-ridge-cv-", t);
    const spec = join(dir, "spec.json");
    writeFileSync(spec, JSON.stringify({ smiles: series.map((c) => c.smiles), y, folds, lambda: cv.lambda }));
    const native = runNative<{ bits: number[][]; predictions: number[][] }>("ridge-cv.py", [spec]);
    assert.deepEqual(native.bits, bits, "the same Morgan bits as native RDKit");
    const ours = repeatedCvPredictions(
      fingerprintGram(bits.map(packBits)),
      y.length,
      Float64Array.from(y),
      1,
      cv,
    );
    for (const [r, run] of native.predictions.entries())
      for (const [i, v] of run.entries()) close(ours[r]?.[i] ?? Number.NaN, v, 1e-6, `repeat ${r} row ${i}`);
  });
});
