// Fits the solubility models on Delaney's measured log S with RDKit WebAssembly descriptors and
// writes data/solubility-models.json: the ESOL form refitted (OLS) and a kernel ridge regression
// whose (γ, λ) are chosen by an inner 5-fold CV inside each outer fold (nested CV figure) and then
// on all data. Deterministic: fixed seed, fixed grid. Run: node packages/science/scripts/fit-solubility-models.ts
import { writeFileSync } from "node:fs";
import { readDataFile } from "../src/data/read-data-file.ts";
import { assignFolds } from "../src/numeric/seeded-shuffle.ts";
import { loadRDKit, parseSmiles } from "../src/rdkit.ts";
import { parseDelaneyCsv } from "../src/solubility/delaney-set.ts";
import { ESOL_TERMS, publishedEsol } from "../src/solubility/esol.ts";
import {
  crossValidate,
  fitKernel,
  fitLinear,
  predictKernel,
  predictLinear,
  rmse,
  rSquared,
} from "../src/solubility/fit-regression.ts";
import {
  descriptorVector,
  SOLUBILITY_DESCRIPTORS,
  solubilityDescriptors,
} from "../src/solubility/solubility-descriptors.ts";

export const SEED = 20040501;
export const FOLDS = 10;
const GRID = { gamma: [0.02, 0.05, 0.1], lambda: [0.1, 0.3, 1] };

const rdkit = await loadRDKit();
const set = parseDelaneyCsv(readDataFile("delaney-processed.csv"));
const descriptors = set.map((compound) => {
  const parsed = parseSmiles(rdkit, compound.smiles);
  if (!("mol" in parsed)) throw new Error(`${compound.name}: ${parsed.error}`);
  try {
    return solubilityDescriptors(rdkit, parsed.mol);
  } finally {
    parsed.mol.delete();
  }
});
const y = set.map((c) => c.measured);
const rows = descriptors.map(descriptorVector);
const esolRows = descriptors.map((d) => ESOL_TERMS.map((term) => d[term]));
const folds = assignFolds(set.length, FOLDS, SEED);

const published = descriptors.map(publishedEsol);
const refitCv = crossValidate(esolRows, y, folds, (r, t) => {
  const w = fitLinear(r, t);
  return (row) => predictLinear(w, row);
});

function selectHyperparameters(r: number[][], t: number[], seed: number): { gamma: number; lambda: number } {
  const inner = assignFolds(r.length, 5, seed);
  let best = { gamma: 0, lambda: 0, error: Number.POSITIVE_INFINITY };
  for (const gamma of GRID.gamma)
    for (const lambda of GRID.lambda) {
      const predicted = crossValidate(r, t, inner, (rr, tt) => {
        const model = fitKernel(rr, tt, gamma, lambda);
        return (row) => predictKernel(model, row).value;
      });
      const error = rmse(predicted, t);
      if (error < best.error) best = { gamma, lambda, error };
    }
  return best;
}

// Nested CV: hyperparameters chosen without the outer fold, so the figure is not tuned on itself.
const nested = crossValidate(rows, y, folds, (r, t) => {
  const { gamma, lambda } = selectHyperparameters(r, t, SEED + 1);
  const model = fitKernel(r, t, gamma, lambda);
  return (row) => predictKernel(model, row).value;
});
const chosen = selectHyperparameters(rows, y, SEED + 1);
const kernelCv = crossValidate(rows, y, folds, (r, t) => {
  const model = fitKernel(r, t, chosen.gamma, chosen.lambda);
  return (row) => predictKernel(model, row).value;
});
const kernel = fitKernel(rows, y, chosen.gamma, chosen.lambda);
// Leave-one-out nearest-neighbour distances of the training rows set the domain limit.
const nn = kernel.train
  .map((row, i) =>
    Math.sqrt(
      Math.min(
        ...kernel.train.map((other, j) =>
          i === j ? Number.POSITIVE_INFINITY : row.reduce((s, v, k) => s + (v - (other[k] ?? 0)) ** 2, 0),
        ),
      ),
    ),
  )
  .sort((a, b) => a - b);
const round = (v: number) => Number(v.toPrecision(10));
const model = {
  generated_by: "packages/science/scripts/fit-solubility-models.ts",
  training_set: `delaney-processed.csv (${set.length} compounds, measured log S)`,
  rdkit_version: rdkit.version(),
  seed: SEED,
  folds: FOLDS,
  descriptors: [...SOLUBILITY_DESCRIPTORS],
  published: {
    rmse_vs_measured: round(rmse(published, y)),
    rmse_vs_paper_esol: round(
      rmse(
        published,
        set.map((c) => c.paperEsol),
      ),
    ),
    r2_vs_paper_esol: round(
      rSquared(
        published,
        set.map((c) => c.paperEsol),
      ),
    ),
  },
  refit: {
    terms: [...ESOL_TERMS],
    weights: fitLinear(esolRows, y).map(round),
    cv_rmse: round(rmse(refitCv, y)),
  },
  kernel: {
    ...kernel,
    cv_rmse: round(rmse(kernelCv, y)),
    nested_cv_rmse: round(rmse(nested, y)),
    grid: GRID,
    domain_distance: round(nn[Math.floor(0.95 * (nn.length - 1))] ?? 0),
    range_min: SOLUBILITY_DESCRIPTORS.map((_, j) => Math.min(...rows.map((r) => r[j] ?? 0))),
    range_max: SOLUBILITY_DESCRIPTORS.map((_, j) => Math.max(...rows.map((r) => r[j] ?? 0))),
  },
};
const out = new URL("../data/solubility-models.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(model)}\n`);
console.log(
  `published RMSE ${model.published.rmse_vs_measured}, refit CV ${model.refit.cv_rmse}, kernel CV ${model.kernel.cv_rmse} (nested ${model.kernel.nested_cv_rmse}, γ ${chosen.gamma}, λ ${chosen.lambda})`,
);
