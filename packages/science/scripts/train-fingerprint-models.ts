// Trains the fingerprint logistic regressions on MoleculeNet's ClinTox (CT_TOX) and Tox21 (12 assays)
// and writes data/clintox-fingerprint-model.json and data/tox21-fingerprint-model.json. Split: random
// 80/10/10 as MoleculeNet used for both sets (Wu et al., Chem. Sci. 2018, 9, 513), with a fixed seed;
// the L2 penalty is chosen per task on valid, the deployed weights are fitted on train + valid and
// their ROC-AUC is measured on test, which no fit or choice saw. Deterministic.
// Run: node packages/science/scripts/train-fingerprint-models.ts   (a few minutes)
import { writeFileSync } from "node:fs";
import { clinToxRows } from "../src/clinical/clintox-set.ts";
import { readDataFile } from "../src/data/read-data-file.ts";
import { crossValidatedRocAuc } from "../src/fingerprint/cross-validated-auc.ts";
import {
  type FingerprintModelFile,
  PART_CODE,
  type TaskModel,
} from "../src/fingerprint/fingerprint-model-file.ts";
import {
  type LogisticModel,
  predictLogistic,
  trainLogistic,
} from "../src/fingerprint/logistic-regression.ts";
import { encodeOnBits, MORGAN_BITS, MORGAN_RADIUS, packBits } from "../src/fingerprint/morgan.ts";
import { parentOnBits } from "../src/fingerprint/parent-fingerprint.ts";
import { leaveOneOutMaxTanimoto } from "../src/fingerprint/reference-set.ts";
import { rocAuc } from "../src/fingerprint/roc-auc.ts";
import { randomSplit, type SplitPart } from "../src/numeric/random-split.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { parseTox21, TOX21_TASKS } from "../src/toxicity/tox21-set.ts";

export const SEED = 20180513;
const L2_GRID = [1e-4, 1e-3, 1e-2, 1e-1];
const ITERATIONS = 300;
const LEARNING_RATE = 0.05;
const DOMAIN_PERCENTILE = 5;

const rdkit = await loadRDKit();
const round = (v: number) => Number(v.toPrecision(6));

interface Dataset {
  readonly name: string;
  readonly file: string;
  readonly smiles: readonly string[];
  readonly tasks: readonly { name: string; labels: readonly (0 | 1 | null)[] }[];
  /** Also report a k-fold cross-validated ROC-AUC (for a small set whose test split is thin). */
  readonly cvFolds?: number;
}

function fitTask(
  bits: readonly (number[] | null)[],
  parts: readonly SplitPart[],
  name: string,
  labels: readonly (0 | 1 | null)[],
  cvFolds: number | undefined,
): TaskModel {
  const rowsOf = (keep: (part: SplitPart) => boolean) =>
    bits.flatMap((b, i) => (b !== null && labels[i] !== null && keep(parts[i] ?? "test") ? [i] : []));
  const train = rowsOf((p) => p === "train");
  const valid = rowsOf((p) => p === "valid");
  const test = rowsOf((p) => p === "test");
  const fit = (rows: number[], l2: number) =>
    trainLogistic(
      rows.map((i) => bits[i] ?? []),
      rows.map((i) => labels[i] ?? 0),
      { l2, iterations: ITERATIONS, learningRate: LEARNING_RATE },
    );
  const auc = (model: LogisticModel, rows: number[]) =>
    rocAuc(
      rows.map((i) => predictLogistic(model, bits[i] ?? [])),
      rows.map((i) => labels[i] ?? 0),
    );
  let best = { l2: L2_GRID[0] ?? 0, auc: Number.NEGATIVE_INFINITY };
  for (const l2 of L2_GRID) {
    const a = auc(fit(train, l2), valid);
    if (a > best.auc) best = { l2, auc: a };
  }
  const fitted = fit([...train, ...valid], best.l2);
  const model = { bias: round(fitted.bias), weights: fitted.weights.map(round) };
  const testAuc = auc(model, test);
  const labelled = rowsOf(() => true);
  const cv =
    cvFolds === undefined
      ? undefined
      : crossValidatedRocAuc(
          labelled.map((i) => bits[i] ?? []),
          labelled.map((i) => labels[i] ?? 0),
          cvFolds,
          SEED,
          { l2: best.l2, iterations: ITERATIONS, learningRate: LEARNING_RATE },
        );
  console.log(
    `${name}: l2 ${best.l2}, valid AUC ${best.auc.toFixed(3)}, test AUC ${testAuc.toFixed(3)}, CV AUC ${cv?.toFixed(3)}`,
  );
  return {
    name,
    l2: best.l2,
    ...model,
    n_train: train.length + valid.length,
    n_test: test.length,
    test_positives: test.filter((i) => labels[i] === 1).length,
    valid_roc_auc: round(best.auc),
    test_roc_auc: round(testAuc),
    ...(cv === undefined ? {} : { cv_roc_auc: round(cv), cv_folds: cvFolds }),
  };
}

function train(dataset: Dataset, note: string): FingerprintModelFile {
  const started = Date.now();
  const bits = dataset.smiles.map((smiles) => parentOnBits(rdkit, smiles));
  console.log(
    `${dataset.name}: ${bits.filter((b) => b === null).length} refused, ${Date.now() - started} ms`,
  );
  const parts = randomSplit(bits.length, SEED);
  const tasks = dataset.tasks.map((task) => fitTask(bits, parts, task.name, task.labels, dataset.cvFolds));
  const training = bits.flatMap((b, i) => (b !== null && parts[i] !== "test" ? [packBits(b)] : []));
  const loo = leaveOneOutMaxTanimoto(training).sort((a, b) => a - b);
  return {
    generated_by: "packages/science/scripts/train-fingerprint-models.ts",
    training_set: `${dataset.file} (${bits.length} rows, ${bits.filter((b) => b !== null).length} parsed by RDKit WebAssembly)`,
    rdkit_version: rdkit.version(),
    fingerprint: { kind: "morgan", radius: MORGAN_RADIUS, bits: MORGAN_BITS },
    seed: SEED,
    split: { kind: "random", train: 0.8, valid: 0.1, test: 0.1, note },
    training: { l2_grid: L2_GRID, iterations: ITERATIONS, learning_rate: LEARNING_RATE },
    row_split: bits.map((b, i) => (b === null ? "x" : PART_CODE[parts[i] ?? "test"])).join(""),
    row_bits: bits.map((b) => (b === null ? "" : encodeOnBits(b))),
    domain: {
      percentile: DOMAIN_PERCENTILE,
      min_tanimoto: round(loo[Math.floor((DOMAIN_PERCENTILE / 100) * (loo.length - 1))] ?? 0),
    },
    tasks,
    mean_test_roc_auc: round(tasks.reduce((s, t) => s + t.test_roc_auc, 0) / tasks.length),
  };
}

const splitNote =
  "MoleculeNet's split for this set is random 80/10/10 (Wu et al. 2018, Table 1); same kind and ratios, " +
  "own seeded permutation, so figures are comparable in kind, not row for row";
const clintox = clinToxRows();
const tox21 = parseTox21(readDataFile("tox21.csv"));
const which = process.argv[2] ?? "all";
const write = (name: string, model: FingerprintModelFile) =>
  writeFileSync(new URL(`../data/${name}`, import.meta.url), `${JSON.stringify(model)}\n`);
if (which === "all" || which === "clintox")
  write(
    "clintox-fingerprint-model.json",
    train(
      {
        name: "ClinTox",
        file: "clintox.csv",
        smiles: clintox.map((r) => r.smiles),
        tasks: [{ name: "CT_TOX", labels: clintox.map((r) => r.ctTox) }],
        cvFolds: 10,
      },
      splitNote,
    ),
  );
if (which === "all" || which === "tox21")
  write(
    "tox21-fingerprint-model.json",
    train(
      {
        name: "Tox21",
        file: "tox21.csv",
        smiles: tox21.map((r) => r.smiles),
        tasks: TOX21_TASKS.map((name, i) => ({ name, labels: tox21.map((r) => r.labels[i] ?? null) })),
      },
      splitNote,
    ),
  );
