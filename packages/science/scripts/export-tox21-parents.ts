// The TypeScript half of the gcn_toxicity training (issue 26 item 2). The parent logic the runner
// applies (salt stripping, the compound-class gate, neutralisation: prepareCompound) exists only in
// TypeScript over RDKit WebAssembly, so the training structures are standardised here and handed to
// scripts/train-tox21-gcn.py as parent SMILES, the very string the runner's modules re-read at run time.
// It also gives the two splits and the fingerprint model's figures on each, so both models are scored
// on the same rows:
// - random: the row split of data/tox21-fingerprint-model.json (randomSplit, seed 20180513; MoleculeNet's
//   kind for Tox21), whose per-task valid/test ROC-AUC is the model that runs today, read as checked in;
// - scaffold: data/scaffold-splits.json's tox21.csv rows; the fingerprint logistic regression is refitted
//   there exactly as train-fingerprint-models.ts fits it (L2 chosen on valid, train + valid fit, test once).
// Run: node packages/science/scripts/export-tox21-parents.ts OUT.json   (~2 min; train-tox21-gcn.py runs it)
import { writeFileSync } from "node:fs";
import { scaffoldSplit } from "../src/admet/scaffold-splits.ts";
import { readDataFile } from "../src/data/read-data-file.ts";
import { PART_CODE } from "../src/fingerprint/fingerprint-model-file.ts";
import {
  type LogisticModel,
  predictLogistic,
  trainLogistic,
} from "../src/fingerprint/logistic-regression.ts";
import { decodeOnBits } from "../src/fingerprint/morgan.ts";
import { rocAuc } from "../src/fingerprint/roc-auc.ts";
import { classDomainReason } from "../src/parent/class-domain.ts";
import { prepareCompound } from "../src/prepare-compound.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { readTox21ModelFile } from "../src/toxicity/tox21-model.ts";
import { parseTox21, TOX21_TASKS } from "../src/toxicity/tox21-set.ts";

const out = process.argv[2];
if (out === undefined) throw new Error("usage: export-tox21-parents.ts OUT.json");
const rdkit = await loadRDKit();
const rows = parseTox21(readDataFile("tox21.csv"));
const fingerprintFile = readTox21ModelFile();

const parents = rows.map((row, i) => {
  const compound = prepareCompound(rdkit, {
    index: i + 1,
    line: i + 2,
    candidateId: `tox21-${i + 1}`,
    name: null,
    smiles: row.smiles,
    metadata: {},
  });
  if (!compound.ok) return { parent_smiles: null, organic: false };
  return { parent_smiles: compound.chem.parent_smiles, organic: classDomainReason(compound) === null };
});

// The fingerprint model's bits (parentOnBits, as the model that runs today reads its compounds).
const bits = fingerprintFile.row_bits.map((encoded) => (encoded === "" ? null : decodeOnBits(encoded)));
const scaffold = scaffoldSplit("tox21.csv");
const scaffoldCodes = scaffold.map((part) => (part === null ? "x" : PART_CODE[part])).join("");
const L2_GRID = fingerprintFile.training.l2_grid;
const { iterations, learning_rate: learningRate } = fingerprintFile.training;

function fingerprintOnSplit(codes: string) {
  return TOX21_TASKS.map((name, t) => {
    const rowsOf = (code: string) =>
      rows.flatMap((row, i) => (bits[i] !== null && row.labels[t] !== null && codes[i] === code ? [i] : []));
    const [train, valid, test] = [rowsOf("t"), rowsOf("v"), rowsOf("s")];
    const fit = (at: number[], l2: number) =>
      trainLogistic(
        at.map((i) => bits[i] ?? []),
        at.map((i) => rows[i]?.labels[t] ?? 0),
        { l2, iterations, learningRate },
      );
    const auc = (model: LogisticModel, at: number[]) =>
      rocAuc(
        at.map((i) => predictLogistic(model, bits[i] ?? [])),
        at.map((i) => rows[i]?.labels[t] ?? 0),
      );
    let best = { l2: L2_GRID[0] ?? 0, auc: Number.NEGATIVE_INFINITY };
    for (const l2 of L2_GRID) {
      const a = auc(fit(train, l2), valid);
      if (a > best.auc) best = { l2, auc: a };
    }
    const testAuc = auc(fit([...train, ...valid], best.l2), test);
    console.error(
      `fingerprint, scaffold split, ${name}: valid ${best.auc.toFixed(3)}, test ${testAuc.toFixed(3)}`,
    );
    return { task: name, l2: best.l2, valid_roc_auc: best.auc, test_roc_auc: testAuc };
  });
}

writeFileSync(
  out,
  `${JSON.stringify({
    generated_by: "packages/science/scripts/export-tox21-parents.ts",
    rdkit_version: rdkit.version(),
    parents,
    splits: {
      random: {
        row_split: fingerprintFile.row_split,
        seed: fingerprintFile.seed,
        note: fingerprintFile.split.note,
      },
      scaffold: {
        row_split: scaffoldCodes,
        note: "data/scaffold-splits.json (tox21.csv), scripts/scaffold-split.py",
      },
    },
    fingerprint_model: {
      model: "tox21_logreg_morgan2",
      random: fingerprintFile.tasks.map((task) => ({
        task: task.name,
        l2: task.l2,
        valid_roc_auc: task.valid_roc_auc,
        test_roc_auc: task.test_roc_auc,
      })),
      scaffold: fingerprintOnSplit(scaffoldCodes),
    },
  })}\n`,
);
