import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readDataFile } from "../data/read-data-file.ts";
import { assignFolds } from "../numeric/seeded-shuffle.ts";
import { loadRDKit, parseSmiles } from "../rdkit.ts";
import { parseDelaneyCsv } from "./delaney-set.ts";
import { publishedEsol } from "./esol.ts";
import { crossValidate, fitKernel, predictKernel, rmse, rSquared } from "./fit-regression.ts";
import {
  descriptorVector,
  type SolubilityDescriptors,
  solubilityDescriptors,
} from "./solubility-descriptors.ts";
import { predictSolubility, solubilityModels } from "./solubility-models.ts";

async function delaney(): Promise<{
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
  return { measured: set.map((c) => c.measured), paper: set.map((c) => c.paperEsol), descriptors };
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
});
