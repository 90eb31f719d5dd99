import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { assignGroupFolds } from "../numeric/group-folds.ts";
import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { scaffoldGroupKeys } from "../scaffold/scaffold-groups.ts";
import { parseDelaneyCsv } from "./delaney-set.ts";
import { ESOL_TERMS, publishedEsol } from "./esol.ts";
import { parseExternalSolubilityCsv } from "./external-solubility-set.ts";
import {
  crossValidate,
  fitKernel,
  fitLinear,
  predictKernel,
  predictLinear,
  rmse,
  rSquared,
} from "./fit-regression.ts";
import {
  descriptorVector,
  type SolubilityDescriptors,
  solubilityDescriptors,
} from "./solubility-descriptors.ts";
import { predictSolubility, solubilityModels } from "./solubility-models.ts";

async function delaney(): Promise<{
  smiles: string[];
  measured: number[];
  paper: number[];
  descriptors: SolubilityDescriptors[];
}> {
  const rdkit = await loadRDKit();
  const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
  const descriptors = set.map((c) => {
    const parsed = parseSmiles(rdkit, c.smiles);
    assert.ok("mol" in parsed, c.name);
    try {
      return solubilityDescriptors(rdkit, parsed.mol);
    } finally {
      parsed.mol.delete();
    }
  });
  return {
    smiles: set.map((c) => c.smiles),
    measured: set.map((c) => c.measured),
    paper: set.map((c) => c.paperEsol),
    descriptors,
  };
}

describe("solubility models on Delaney's set (a reference no one here wrote)", () => {
  it("reads 1,128 compounds with measured log S and the paper's ESOL column", () => {
    const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
    assert.equal(set.length, 1128);
    assert.equal(set.find((c) => c.name === "2,2,4,6,6'-PCB")?.measured, -7.32);
  });

  it("ESOL's published equation reproduces the paper's ESOL column (RMSE < 0.55, r² > 0.9: Crippen logP for Daylight clogP)", async () => {
    const { paper, descriptors } = await delaney();
    const published = descriptors.map(publishedEsol);
    assert.ok(rmse(published, paper) < 0.55, `RMSE ${rmse(published, paper)}`);
    assert.ok(rSquared(published, paper) > 0.9, `r² ${rSquared(published, paper)}`);
  });

  it("the kernel model the report uses has a 10-fold CV RMSE below the paper's 0.91, recomputed here", async () => {
    const { measured, descriptors } = await delaney();
    const models = solubilityModels();
    const rows = descriptors.map(descriptorVector);
    const folds = assignFolds(rows.length, models.folds, models.seed);
    const predicted = crossValidate(rows, measured, folds, (r, t) => {
      const model = fitKernel(r, t, models.kernel.gamma, models.kernel.lambda);
      return (row) => predictKernel(model, row).value;
    });
    const error = rmse(predicted, measured);
    assert.ok(error < 0.91, `CV RMSE ${error}`);
    assert.ok(
      Math.abs(error - models.kernel.cv_rmse) < 1e-6,
      `recorded ${models.kernel.cv_rmse}, now ${error}`,
    );
    assert.ok(models.kernel.nested_cv_rmse < 0.91);
  });

  it("the checked-in kernel weights are those the fitting script gets from the data", async () => {
    const { measured, descriptors } = await delaney();
    const models = solubilityModels();
    const refit = fitKernel(
      descriptors.map(descriptorVector),
      measured,
      models.kernel.gamma,
      models.kernel.lambda,
    );
    for (const d of descriptors.slice(0, 50))
      assert.ok(
        Math.abs(predictSolubility(d).kernel - predictKernel(refit, descriptorVector(d)).value) < 1e-6,
      );
  });

  it("a training compound is in the domain; a 60-carbon alkane is not", async () => {
    const rdkit = await loadRDKit();
    const read = (smiles: string) => {
      const parsed = parseSmiles(rdkit, smiles);
      assert.ok("mol" in parsed);
      try {
        return predictSolubility(solubilityDescriptors(rdkit, parsed.mol));
      } finally {
        parsed.mol.delete();
      }
    };
    assert.equal(read("Cc1occc1C(=O)Nc1ccccc1").in_domain, true);
    assert.equal(read("C".repeat(60)).in_domain, false);
  });

  it("scaffold-grouped CV (the figure the model is chosen by) recomputes, and the adopted model beats the constant predictor", async () => {
    const rdkit = await loadRDKit();
    const { smiles, measured, descriptors } = await delaney();
    const models = solubilityModels();
    const folds = assignGroupFolds(
      scaffoldGroupKeys(rdkit, smiles),
      models.scaffold_cv.folds,
      models.scaffold_cv.seed,
    );
    // no scaffold is on both sides of any fold
    const keys = scaffoldGroupKeys(rdkit, smiles);
    const foldOf = new Map<string, number>();
    keys.forEach((key, i) => {
      assert.equal(foldOf.get(key) ?? folds[i], folds[i], key);
      foldOf.set(key, folds[i] ?? -1);
    });
    const rows = descriptors.map(descriptorVector);
    const esolRows = descriptors.map((d) => ESOL_TERMS.map((term) => d[term]));
    const recomputed = {
      constant: crossValidate(rows, measured, folds, (_r, t) => {
        const mean = t.reduce((a, b) => a + b, 0) / t.length;
        return () => mean;
      }),
      esol_published_crippen: descriptors.map(publishedEsol),
      esol_refit_rdkit: crossValidate(esolRows, measured, folds, (r, t) => {
        const w = fitLinear(r, t);
        return (row) => predictLinear(w, row);
      }),
      kernel_ridge_rdkit14_final_hyperparameters: crossValidate(rows, measured, folds, (r, t) => {
        const m = fitKernel(r, t, models.kernel.gamma, models.kernel.lambda);
        return (row) => predictKernel(m, row).value;
      }),
    };
    for (const [name, predicted] of Object.entries(recomputed)) {
      const recorded = models.scaffold_cv.figures[name]?.rmse ?? -1;
      assert.ok(
        Math.abs(rmse(predicted, measured) - recorded) < 1e-6,
        `${name}: ${rmse(predicted, measured)} vs ${recorded}`,
      );
    }
    const cv = models.scaffold_cv.figures;
    const adopted = cv[models.adopted]?.rmse ?? Number.POSITIVE_INFINITY;
    for (const candidate of ["esol_published_crippen", "esol_refit_rdkit", "kernel_ridge_rdkit14"])
      assert.ok(adopted <= (cv[candidate]?.rmse ?? 0), `${models.adopted} vs ${candidate}`);
    assert.ok(adopted < (cv.constant?.rmse ?? 0));
    // the random-CV figure is optimistic next to the scaffold-grouped one (why it is not used to choose)
    assert.ok(models.kernel.cv_rmse < adopted);
  });

  it("the external check (Huuskonen's compounds not in Delaney's set) recomputes from the checked-in models", async () => {
    const rdkit = await loadRDKit();
    const models = solubilityModels();
    const set = parseExternalSolubilityCsv(readDataFile("huuskonen-external-solubility.csv"));
    assert.equal(set.length, 529);
    const predictions = set.map((c) => {
      const parsed = parseSmiles(rdkit, c.smiles);
      assert.ok("mol" in parsed, c.name);
      try {
        return predictSolubility(solubilityDescriptors(rdkit, parsed.mol));
      } finally {
        parsed.mol.delete();
      }
    });
    const measured = set.map((c) => c.logS);
    const inDomain = predictions.map((p) => p.in_domain);
    assert.equal(inDomain.filter(Boolean).length, models.external.in_domain);
    const byName = {
      esol_published_crippen: predictions.map((p) => p.published),
      esol_refit_rdkit: predictions.map((p) => p.refit),
      kernel_ridge_rdkit14: predictions.map((p) => p.kernel),
    };
    for (const [name, predicted] of Object.entries(byName)) {
      const recorded = models.external.figures[name];
      assert.ok(Math.abs(rmse(predicted, measured) - (recorded?.all.rmse ?? -1)) < 1e-6, name);
      const kept = (values: number[]) => values.filter((_, i) => inDomain[i]);
      assert.ok(
        Math.abs(rmse(kept(predicted), kept(measured)) - (recorded?.in_domain.rmse ?? -1)) < 1e-6,
        name,
      );
    }
  });
});
