// Builds data/drugcentral-safety-index.json (CC BY-SA 4.0, derived from DrugCentral 2023): the
// Morgan radius-2, 2,048-bit fingerprints of every DrugCentral drug acting on a safety-panel target
// (Bowes et al. 2012, Brennan et al. 2024; joined by UniProt accession), and the validation of
// target_biology_risk's nearest-neighbour prediction on a scaffold-disjoint split of DrugCentral.
//
// Featurisation is the runner's own: prepareCompound (salts stripped, charge-neutral parent) and
// compoundOnBits, so the index and a run's compounds are fingerprinted identically.
//
// Validation (no seed; deterministic): the evaluation set is every parsed drug with at least one
// DrugCentral target (a drug with none is unannotated, not a negative). Each is keyed by the
// Bemis–Murcko scaffold of its parent and split as MoleculeNet's scaffold split (Wu et al., Chem.
// Sci. 2018, 9, 513; the rule of scripts/scaffold-split.py): scaffold groups largest first into
// train until 80%, valid until 90%, the rest test. Queries of valid and test see only the train
// drugs of the index. A (compound, panel target) pair is predicted when a train drug at or above
// the threshold acts on that target; scores are micro-averaged over pairs. The threshold is the
// best valid F1 on a 0.30–0.80 grid; test is scored once at it (the test curve is printed beside it
// for the trade-off only). Baselines on the same test rows: the k most frequent panel targets of
// train for every compound (k on valid), and each target at random with its train prevalence.
//
// Run: node packages/science/scripts/build-drugcentral-safety-index.ts            (writes the file and docs/science.md's table)
//      node packages/science/scripts/build-drugcentral-safety-index.ts --stdout   (the test's route)
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { replaceGeneratedBlock } from "@svc/testing";
import { decodeOnBits, encodeOnBits, packBits } from "../src/fingerprint/morgan.ts";
import { fingerprintSet } from "../src/fingerprint/reference-set.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { scaffoldSplitParts } from "../src/scaffold/scaffold-split.ts";
import {
  DRUGCENTRAL_INDEX_FILE,
  DRUGCENTRAL_SOURCE_FILE,
  type DrugCentralIndexFile,
  type IndexedDrug,
  type PairScores,
  PER_TARGET_MIN_POSITIVES,
  type SafetyNeighbourValidation,
} from "../src/target-risk/drugcentral-index.ts";
import {
  type PreparedDrug,
  prepareDrugCentral,
  readDrugCentralTable,
} from "../src/target-risk/drugcentral-table.ts";
import { predictFromNeighbours } from "../src/target-risk/off-target-neighbours.ts";
import { SAFETY_PANEL_FILES, safetyPanel } from "../src/target-risk/safety-panel.ts";
import {
  renderTargetRiskValidation,
  TARGET_RISK_DOCS_BLOCK,
  TARGET_RISK_DOCS_SOURCE,
} from "../src/target-risk/target-risk-docs.ts";

const DATA = new URL("../data/", import.meta.url);
const GRID = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
const MAX_K = 5;
const TRAIN = 0.8;
const VALID = 0.1;

type Part = "train" | "valid" | "test";

interface Drug extends IndexedDrug {
  readonly annotated: boolean;
  readonly scaffold: string;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The drugs as target_biology_risk indexes them: panel gene symbols joined by UniProt accession. */
function panelDrugs(prepared: readonly PreparedDrug[]): Drug[] {
  const symbolOf = new Map(
    safetyPanel().flatMap((t) => (t.uniprot_id ? [[t.uniprot_id, t.gene_symbol]] : [])),
  );
  return prepared.map((drug) => ({
    struct_id: drug.struct_id,
    name: drug.name,
    approvals: drug.approvals,
    targets: [...new Set(drug.accessions.flatMap((a) => symbolOf.get(a) ?? []))].sort(),
    bits: encodeOnBits(drug.onBits),
    annotated: drug.accessions.length > 0,
    scaffold: drug.scaffold,
  }));
}

/** The shared scaffold split (scaffold/scaffold-split.ts) over `members` (indices into `drugs`). */
function scaffoldSplit(drugs: readonly Drug[], members: readonly number[]): Map<number, Part> {
  const parts = scaffoldSplitParts(
    members.map((i) => drugs[i]?.scaffold ?? ""),
    TRAIN,
    VALID,
  );
  return new Map(members.map((i, at) => [i, parts[at] as Part]));
}

function scores(truePositives: number, predicted: number, actual: number): PairScores {
  const precision = predicted === 0 ? 0 : truePositives / predicted;
  const recall = actual === 0 ? 0 : truePositives / actual;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    true_positives: round(truePositives),
    predicted: round(predicted),
    actual,
    precision: round(precision),
    recall: round(recall),
    f1: round(f1),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function validate(drugs: readonly Drug[], index: readonly Drug[]): SafetyNeighbourValidation {
  const evaluation = drugs.flatMap((drug, i) => (drug.annotated ? [i] : []));
  const parts = scaffoldSplit(drugs, evaluation);
  const inPart = (part: Part) => evaluation.filter((i) => parts.get(i) === part);
  const partOfIndex = index.map((drug) => parts.get(drugs.indexOf(drug)));
  const set = fingerprintSet(index.map((drug) => packBits(decodeOnBits(drug.bits))));
  const isTrain = (i: number) => partOfIndex[i] === "train";
  const curve = (members: readonly number[]) =>
    GRID.map((threshold) => {
      let tp = 0;
      let predicted = 0;
      let actual = 0;
      let covered = 0;
      for (const i of members) {
        const drug = drugs[i] as Drug;
        const fp = packBits(decodeOnBits(drug.bits));
        const prediction = predictFromNeighbours(fp, index, set, threshold, isTrain);
        const said = new Set(prediction.targets.map((t) => t.gene_symbol));
        if (prediction.max_tanimoto >= threshold) covered++;
        predicted += said.size;
        actual += drug.targets.length;
        tp += drug.targets.filter((t) => said.has(t)).length;
      }
      return { threshold, covered, ...scores(tp, predicted, actual) };
    });
  const valid = inPart("valid");
  const test = inPart("test");
  const train = inPart("train");
  const validCurve = curve(valid);
  const best = validCurve.reduce((a, b) => (b.f1 > a.f1 ? b : a));
  const testCurve = curve(test);
  const atBest = testCurve.find((point) => point.threshold === best.threshold) ?? testCurve[0];
  // Per target at the chosen threshold, for the targets with enough test positives to say anything.
  const perTarget = new Map<string, { tp: number; predicted: number; actual: number }>();
  const tally = (t: string) => {
    const entry = perTarget.get(t) ?? { tp: 0, predicted: 0, actual: 0 };
    perTarget.set(t, entry);
    return entry;
  };
  for (const i of test) {
    const drug = drugs[i] as Drug;
    const prediction = predictFromNeighbours(
      packBits(decodeOnBits(drug.bits)),
      index,
      set,
      best.threshold,
      isTrain,
    );
    for (const t of prediction.targets) tally(t.gene_symbol).predicted++;
    for (const t of drug.targets) {
      tally(t).actual++;
      if (prediction.targets.some((p) => p.gene_symbol === t)) tally(t).tp++;
    }
  }
  const perTargetScores = [...perTarget]
    .filter(([, c]) => c.actual >= PER_TARGET_MIN_POSITIVES)
    .sort((a, b) => b[1].actual - a[1].actual || (a[0] < b[0] ? -1 : 1))
    .map(([gene_symbol, c]) => ({ gene_symbol, ...scores(c.tp, c.predicted, c.actual) }));
  // Baselines, from train's target frequencies.
  const frequency = new Map<string, number>();
  for (const i of train)
    for (const t of drugs[i]?.targets ?? []) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const ranked = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
  const constant = (members: readonly number[], k: number) => {
    const said = new Set(ranked.slice(0, k));
    let tp = 0;
    let actual = 0;
    for (const i of members) {
      const targets = drugs[i]?.targets ?? [];
      actual += targets.length;
      tp += targets.filter((t) => said.has(t)).length;
    }
    return scores(tp, said.size * members.length, actual);
  };
  let bestK = 1;
  for (let k = 2; k <= MAX_K; k++) if (constant(valid, k).f1 > constant(valid, bestK).f1) bestK = k;
  // Prevalence-random: target t said with probability p_t = its share of train drugs, independently.
  let expectedTp = 0;
  let expectedPredicted = 0;
  let actual = 0;
  for (const [t, n] of frequency) {
    const p = n / train.length;
    const positives = test.filter((i) => drugs[i]?.targets.includes(t)).length;
    expectedTp += p * positives;
    expectedPredicted += p * test.length;
  }
  for (const i of test) actual += drugs[i]?.targets.length ?? 0;
  const withPanel = (members: readonly number[]) =>
    members.filter((i) => (drugs[i]?.targets.length ?? 0) > 0).length;
  const { threshold: _t, covered, ...testScores } = atBest as (typeof testCurve)[number];
  return {
    split:
      "scaffold (MoleculeNet's rule: Bemis–Murcko scaffold groups of the parents, largest first, 80/10/10), " +
      "over the DrugCentral drugs with at least one target; valid and test see only train drugs",
    compounds: { train: train.length, valid: valid.length, test: test.length },
    with_panel_target: { train: withPanel(train), valid: withPanel(valid), test: withPanel(test) },
    threshold_grid: GRID,
    valid_f1: validCurve.map((point) => point.f1),
    threshold: best.threshold,
    test: { ...testScores, covered },
    test_curve: testCurve,
    per_target: perTargetScores,
    baselines: {
      most_frequent: { k: bestK, targets: ranked.slice(0, bestK), ...constant(test, bestK) },
      prevalence_random: scores(expectedTp, expectedPredicted, actual),
    },
  };
}

const { rows, sha256: sha } = readDrugCentralTable();
const drugs = panelDrugs(prepareDrugCentral(await loadRDKit(), rows));
const index = drugs.filter((drug) => drug.targets.length > 0);
const file: DrugCentralIndexFile = {
  schema: "svc.drugcentral-safety-index/v1",
  licence:
    "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), as the DrugCentral data it is derived from",
  attribution:
    "Derived from DrugCentral 2023 (Avram et al., Nucleic Acids Res. 2023, 51, D1276; unmtransinfo/DrugCentral-2023): " +
    "structures, FDA/EMA/PMDA approval lists and UniProt targets. Changes: parents fingerprinted, targets joined " +
    "by UniProt accession onto the Bowes 2012 and Brennan 2024 safety panels (Open Targets curation).",
  source: { file: DRUGCENTRAL_SOURCE_FILE, sha256: sha, rows: rows.length },
  panel_files: Object.fromEntries(
    SAFETY_PANEL_FILES.map((name) => [name, sha256(readFileSync(new URL(name, DATA)))]),
  ),
  fingerprint:
    "Morgan radius 2, 2,048 bits (RDKit WebAssembly) of the charge-neutral parent made by prepareCompound, as a run's compounds",
  evaluation_set: `${drugs.length} of ${rows.length} structures prepared; ${drugs.filter((d) => d.annotated).length} with at least one target; ${index.length} with a panel target (indexed below)`,
  validation: validate(drugs, index),
  drugs: index.map(({ struct_id, name, approvals, targets, bits }) => ({
    struct_id,
    name,
    approvals,
    targets,
    bits,
  })),
};
const { drugs: indexed, ...head } = file;
const text = JSON.stringify({ ...head, drugs: "__DRUGS__" }, null, 2).replace(
  '"__DRUGS__"',
  `[\n${indexed.map((drug) => `    ${JSON.stringify(drug)}`).join(",\n")}\n  ]`,
);
if (process.argv.includes("--stdout")) process.stdout.write(`${text}\n`);
else {
  writeFileSync(new URL(DRUGCENTRAL_INDEX_FILE, DATA), `${text}\n`);
  // docs/science.md's generated validation table follows the file (a test compares them).
  const docs = new URL("../../../docs/science.md", import.meta.url);
  writeFileSync(
    docs,
    replaceGeneratedBlock(
      readFileSync(docs, "utf8"),
      TARGET_RISK_DOCS_BLOCK,
      TARGET_RISK_DOCS_SOURCE,
      renderTargetRiskValidation(file.validation),
    ),
  );
}
