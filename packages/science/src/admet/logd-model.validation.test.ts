import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { inOneThread } from "../define-module.ts";
import { decodeOnBits } from "../fingerprint/morgan.ts";
import { prepareCompound } from "../prepare-compound.ts";
import { loadRDKit } from "../rdkit.ts";
import { rmse } from "../solubility/fit-regression.ts";
import { conformalHalfWidth } from "../uncertainty/conformal.ts";
import { uncertaintyQuantification } from "../uncertainty/uncertainty-quantification.ts";
import { logdDescriptorRow, parentFeatures } from "./admet-model-features.ts";
import { admetPredictions } from "./admet-predictions.ts";
import { parseLipophilicity } from "./lipophilicity-set.ts";
import { logdModel, predictLogd, readLogdModelFile } from "./logd-model.ts";
import { scaffoldSplit } from "./scaffold-splits.ts";

describe("logD7.4 model on Lipophilicity's scaffold split, beside WLOGP read as log D", () => {
  it("test RMSE, WLOGP's RMSE on the same rows, conformal half-widths and their test coverage recompute from the SMILES and the weights", async () => {
    const rdkit = await loadRDKit();
    const file = readLogdModelFile();
    const model = logdModel();
    const rows = parseLipophilicity(readDataFile("lipo.csv"));
    assert.equal(rows.length, 4200);
    const parts = scaffoldSplit("lipo.csv");
    const predict = (part: "valid" | "test") =>
      parts.flatMap((p, i) => {
        if (p !== part) return [];
        const f = parentFeatures(rdkit, rows[i]?.smiles ?? "");
        assert.ok(f !== null);
        assert.deepEqual(f.onBits, decodeOnBits(file.row_bits[i] ?? ""), `row ${i + 1}: fingerprint`);
        const value = predictLogd(model, f.onBits, logdDescriptorRow(f.descriptors, f.anionic)).value;
        return [{ value, observed: rows[i]?.logd ?? 0, clogp: f.descriptors.wlogp }];
      });
    const test = predict("test");
    const valid = predict("valid");
    assert.equal(test.length, file.test.rows);
    const modelRmse = rmse(
      test.map((t) => t.value),
      test.map((t) => t.observed),
    );
    const clogpRmse = rmse(
      test.map((t) => t.clogp),
      test.map((t) => t.observed),
    );
    console.log(
      `# Lipophilicity scaffold test (${test.length}): model RMSE ${modelRmse.toFixed(3)}, WLOGP ${clogpRmse.toFixed(3)}`,
    );
    assert.ok(Math.abs(modelRmse - file.test.rmse) < 1e-4, `recorded ${file.test.rmse}, now ${modelRmse}`);
    assert.ok(Math.abs(clogpRmse - file.baseline_test.rmse) < 1e-4);
    // The adoption rule of issue 11: per-compound output only if the model beats the rule baseline.
    assert.equal(file.adopted, modelRmse < clogpRmse);
    for (const level of ["0.8", "0.9"]) {
      const h = conformalHalfWidth(
        valid.map((v) => v.observed - v.value),
        Number(level),
      );
      assert.ok(Math.abs(h - (file.conformal.half_width[level] ?? 0)) < 1e-4, `half-width ${level}`);
      const covered = test.filter((t) => Math.abs(t.observed - t.value) <= h).length / test.length;
      assert.ok(Math.abs(covered - (file.conformal.test_coverage[level] ?? 0)) < 1e-4, `coverage ${level}`);
      // Held-out coverage within 3 points of nominal (the bar for conformal intervals).
      assert.ok(Math.abs(covered - Number(level)) <= 0.03, `coverage ${level}: ${covered}`);
    }
  });

  it("a compound gets logd74 in admet_predictions and the same value with intervals and domain in uncertainty_quantification", async () => {
    const rdkit = await loadRDKit();
    const row = (smiles: string) => ({
      index: 0,
      line: 1,
      candidateId: "C0",
      name: null,
      smiles,
      metadata: {},
    });
    // Lipophilicity's first row (measured log D 3.54), as its hydrochloride: the chloride is stripped.
    const lipo = prepareCompound(rdkit, row("Cn1c(CN2CCN(CC2)c3ccc(Cl)cc3)nc4ccccc14.Cl"));
    const admet = inOneThread(admetPredictions).analyze(lipo);
    const uq = inOneThread(uncertaintyQuantification).analyze(lipo);
    assert.ok(admet.logd74 !== null);
    assert.equal(admet.logd74.model, "lipo_krr_tanimoto_descriptors");
    assert.equal(admet.logd74.nearest_tanimoto, 1, "a training compound is its own nearest neighbour");
    assert.equal(admet.logd74.in_domain, true);
    assert.match(admet.logd74.domain_rule, /^nearest training Tanimoto \(Morgan r2\) ≥ 0\.29/);
    const value = admet.logd74.value as number;
    assert.ok(Math.abs(value - 3.54) < 0.5, `fitted ${value}`);
    const estimate = uq.estimates?.["admet_predictions.logd74"];
    assert.ok(estimate?.value != null && estimate.interval_80 !== null && estimate.interval_90 !== null);
    assert.ok(Math.abs(estimate.value - value) < 0.006);
    assert.ok(estimate.interval_80[0] < estimate.value && estimate.value < estimate.interval_80[1]);
    assert.ok(
      estimate.interval_90[1] - estimate.interval_90[0] > estimate.interval_80[1] - estimate.interval_80[0],
    );
    // Far from AstraZeneca's chemistry: a perfluoroalkane is outside the domain, so no log D is a
    // finding there, only the raw estimate for audit (issue 24 item 1).
    const perfluorobutane = prepareCompound(rdkit, row("FC(F)(F)C(F)(F)C(F)(F)C(F)(F)F"));
    const far = inOneThread(uncertaintyQuantification).analyze(perfluorobutane);
    const farLogd = far.estimates?.["admet_predictions.logd74"];
    assert.equal(farLogd?.in_domain, false);
    assert.equal(farLogd?.value, null);
    assert.equal(farLogd?.interval_90, null);
    assert.equal(typeof farLogd?.raw_out_of_domain_value, "number");
    assert.ok(far.out_of_domain?.includes("admet_predictions.logd74"));
    const farAdmet = inOneThread(admetPredictions).analyze(perfluorobutane).logd74;
    assert.equal(farAdmet?.value, null);
    assert.equal(farAdmet?.status, "out_of_domain");
    assert.match(
      farAdmet?.domain_reason ?? "",
      /^out_of_domain: nearest training compound at Tanimoto 0\.\d+, below/,
    );
    assert.ok(
      Math.abs((farAdmet?.raw_out_of_domain_value ?? 99) - (farLogd?.raw_out_of_domain_value ?? 0)) < 0.006,
    );
    const summary = inOneThread(uncertaintyQuantification).finish();
    const file = readLogdModelFile();
    assert.deepEqual(summary.conformal.logd74.half_width, file.conformal.half_width);
    assert.match(
      summary.domain_rules["admet_predictions.logd74"] ?? "",
      /^nearest training Tanimoto \(Morgan r2\) ≥ 0\.\d+/,
    );
  });
});
