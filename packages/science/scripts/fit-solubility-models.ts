// Fits the solubility models on AqSolDB (Sorkun, Khetan & Er, Sci. Data 2019, 6, 143) and writes
// data/solubility-models.json (the deployed weights, the training fingerprints, the figures) and
// data/solubility-cv.json (every compound's out-of-fold predictions, for the tests to recompute the
// figures from) and data/solubility-drug-domain.json (the approved drugs' nearest similarities; CC
// BY-SA 4.0 as the DrugCentral table it is derived from):
// - each SMILES through the runner's own preparation (parents: salts stripped, neutralised), out-of-
//   class compounds left out, rows sharing a parent merged with their mean log S;
// - 10-fold CV grouped by Bemis–Murcko scaffold, every acyclic parent in one group (MoleculeNet's
//   convention); per fold the constant predictor, ESOL as published (no fitting), ESOL's four terms
//   refitted, ridge on 42 RDKit descriptors and a one-hidden-layer network on Morgan bits + the same
//   descriptors (sparse-mlp.ts; its epoch chosen on a grouped inner validation fold of the training
//   part); figures overall and on the drug-like subset (drug-like.ts);
// - the adopted model: the lowest scaffold-CV RMSE; its applicability domain a nearest-training
//   Tanimoto floor read from where the out-of-fold error rises, never below random-pair similarity;
//   the share of approved drugs (DrugCentral) under 700 Da in that domain;
// - the deployed models refitted on all compounds by the same procedure.
// Deterministic: fixed seeds, no threads.
// Run: node packages/science/scripts/fit-solubility-models.ts [--cache DIR]   (about 15 minutes)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mlpOutput, type SparseRow, trainSparseMlp } from "../src/admet/sparse-mlp.ts";
import { TDC_DESCRIPTORS, type TdcFeatures, tdcFeatures } from "../src/admet/tdc-features.ts";
import { readDataFile } from "../src/data/read-data-file.ts";
import { encodeOnBits, packBits, tanimoto } from "../src/fingerprint/morgan.ts";
import { fingerprintSet, maxTanimoto } from "../src/fingerprint/reference-set.ts";
import { assignGroupFolds } from "../src/numeric/group-folds.ts";
import { classDomainReason } from "../src/parent/class-domain.ts";
import { prepareCompound } from "../src/prepare-compound.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { approvedDrugs } from "../src/solubility/approved-drugs.ts";
import { parseAqSolDbCsv } from "../src/solubility/aqsoldb-set.ts";
import { ESOL_TERMS, publishedEsol } from "../src/solubility/esol.ts";
import { fitLinear, predictLinear, standardization } from "../src/solubility/fit-regression.ts";
import {
  chooseDomainFloor,
  DOMAIN_BINS,
  fitRidge,
  NETWORK,
  networkRow,
  predictRidge,
  randomPairTanimoto,
  regressionFigures,
  SOLUBILITY_CANDIDATES,
  SOLUBILITY_CV,
  type SolubilityCandidate,
  similarityCurve,
} from "../src/solubility/solubility-fit.ts";
import { curateSolubilitySet } from "../src/solubility/solubility-training-set.ts";

const started = Date.now();
const rdkit = await loadRDKit();
const args = process.argv.slice(2);
const cacheAt = args.indexOf("--cache");
const cacheDir = cacheAt >= 0 ? args[cacheAt + 1] : undefined;
const cacheFile = cacheDir === undefined ? null : join(cacheDir, "aqsoldb-features.json");
const cache = new Map<string, TdcFeatures>(
  cacheFile !== null && existsSync(cacheFile)
    ? Object.entries(JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, TdcFeatures>)
    : [],
);
const text = readDataFile("aqsoldb-train.csv");
const sha256 = createHash("sha256").update(text).digest("hex");
const { compounds, curation } = curateSolubilitySet(rdkit, parseAqSolDbCsv(text), (smiles) => {
  let f = cache.get(smiles);
  if (f === undefined) {
    f = tdcFeatures(rdkit, smiles);
    cache.set(smiles, f);
  }
  return f;
});
if (cacheFile !== null) {
  mkdirSync(cacheDir as string, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(cache)));
}
console.log(`curated ${JSON.stringify(curation)} (${Date.now() - started} ms)`);

const n = compounds.length;
const y = compounds.map((c) => c.logS);
const keys = compounds.map((c) => c.group);
const folds = assignGroupFolds(keys, SOLUBILITY_CV.folds, SOLUBILITY_CV.seed);
const esolRows = compounds.map((c) => ESOL_TERMS.map((term) => c.descriptors[term]));
const fps = compounds.map((c) => packBits(c.bits));
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Trains the network on `idx` with its epoch chosen on a grouped inner fold of `idx`. */
function trainNetwork(idx: readonly number[], seed: number) {
  const inner = assignGroupFolds(
    idx.map((i) => keys[i] ?? ""),
    NETWORK.innerFolds,
    seed,
  );
  // The largest group (the acyclic one) always lands in inner fold 0: the last fold is validated on.
  const valid = idx.filter((_, j) => inner[j] === NETWORK.innerFolds - 1);
  const fit = idx.filter((_, j) => inner[j] !== NETWORK.innerFolds - 1);
  const scale = standardization(fit.map((i) => [...(compounds[i]?.dense ?? [])]));
  const yMean = mean(fit.map((i) => y[i] ?? 0));
  const ySd = Math.sqrt(mean(fit.map((i) => ((y[i] ?? 0) - yMean) ** 2))) || 1;
  const row = (i: number): SparseRow =>
    networkRow(compounds[i]?.bits ?? [], compounds[i]?.dense ?? [], scale);
  const validRows = valid.map(row);
  const trained = trainSparseMlp(
    fit.map(row),
    fit.map((i) => ((y[i] ?? 0) - yMean) / ySd),
    {
      task: "regression",
      hidden: NETWORK.hidden,
      dense: TDC_DESCRIPTORS.length,
      epochs: NETWORK.epochs,
      batch: NETWORK.batch,
      learningRate: NETWORK.learningRate,
      weightDecay: NETWORK.weightDecay,
      seed,
    },
    (m) =>
      -Math.sqrt(
        mean(validRows.map((r, j) => (yMean + ySd * mlpOutput(m, r) - (y[valid[j] ?? 0] ?? 0)) ** 2)),
      ),
  );
  return { network: trained.model, epoch: trained.epoch, scale, yMean, ySd };
}

const oof: Record<SolubilityCandidate, number[]> = Object.fromEntries(
  SOLUBILITY_CANDIDATES.map((name) => [name, new Array<number>(n).fill(Number.NaN)]),
) as Record<SolubilityCandidate, number[]>;
const nearest = new Array<number>(n).fill(0);
const epochs: number[] = [];
for (let f = 0; f < SOLUBILITY_CV.folds; f++) {
  const t0 = Date.now();
  const train = folds.flatMap((fold, i) => (fold === f ? [] : [i]));
  const test = folds.flatMap((fold, i) => (fold === f ? [i] : []));
  const yTrain = train.map((i) => y[i] ?? 0);
  const constant = mean(yTrain);
  const refit = fitLinear(
    train.map((i) => esolRows[i] ?? []),
    yTrain,
  );
  const ridge = fitRidge(
    train.map((i) => compounds[i]?.dense ?? []),
    yTrain,
  );
  const net = trainNetwork(train, SOLUBILITY_CV.seed + 1 + f);
  epochs.push(net.epoch);
  const reference = fingerprintSet(train.map((i) => fps[i] as Uint32Array));
  for (const i of test) {
    const c = compounds[i];
    if (c === undefined) continue;
    oof.constant[i] = constant;
    oof.esol_published_crippen[i] = publishedEsol(c.descriptors);
    oof.esol_refit_rdkit[i] = predictLinear(refit, esolRows[i] ?? []);
    oof.ridge_rdkit2d[i] = predictRidge(ridge, c.dense);
    oof.mlp64_morgan2_rdkit2d[i] =
      net.yMean + net.ySd * mlpOutput(net.network, networkRow(c.bits, c.dense, net.scale));
    nearest[i] = maxTanimoto(fps[i] as Uint32Array, reference);
  }
  const r = (name: SolubilityCandidate) =>
    regressionFigures(
      test.map((i) => oof[name][i] ?? 0),
      test.map((i) => y[i] ?? 0),
    ).rmse.toFixed(3);
  console.log(
    `fold ${f}: ${test.length} held out, epoch ${net.epoch}; ${SOLUBILITY_CANDIDATES.map((c) => `${c} ${r(c)}`).join(", ")} (${Date.now() - t0} ms)`,
  );
}

// Figures and the domain are computed from the values as stored in solubility-cv.json, so a test
// recomputes them exactly.
const round = (v: number) => Number(v.toPrecision(6));
for (const name of SOLUBILITY_CANDIDATES) oof[name] = oof[name].map(round);
for (let i = 0; i < n; i++) nearest[i] = round(nearest[i] ?? 0);
const drugLike = compounds.map((c) => c.drugLike);
const figuresOf = (predicted: readonly number[]) => ({
  all: regressionFigures(predicted, y),
  drug_like: regressionFigures(
    predicted.filter((_, i) => drugLike[i]),
    y.filter((_, i) => drugLike[i]),
  ),
  not_drug_like: regressionFigures(
    predicted.filter((_, i) => !drugLike[i]),
    y.filter((_, i) => !drugLike[i]),
  ),
});
const figures = Object.fromEntries(
  SOLUBILITY_CANDIDATES.map((name) => [name, figuresOf(oof[name])]),
) as Record<SolubilityCandidate, ReturnType<typeof figuresOf>>;
const adopted = SOLUBILITY_CANDIDATES.filter((c) => c !== "constant").sort(
  (a, b) => figures[a].all.rmse - figures[b].all.rmse,
)[0] as SolubilityCandidate;
console.log(JSON.stringify(figures, null, 1));

const randomPair = randomPairTanimoto(fps, SOLUBILITY_CV.seed, tanimoto);
const curve = similarityCurve(nearest, oof[adopted], y);
const floor = chooseDomainFloor(curve, figures[adopted].all.rmse, randomPair);
console.log(
  `adopted ${adopted}; random-pair p99 ${randomPair}; floor ${floor}; curve ${JSON.stringify(curve)}`,
);

// ---- the deployed models: refitted on every compound by the same procedure
const all = compounds.map((_, i) => i);
const finalNet = trainNetwork(all, SOLUBILITY_CV.seed);
const finalRidge = fitRidge(
  compounds.map((c) => c.dense),
  y,
);
const finalRefit = fitLinear(esolRows, y);
const weight = (v: number) => Number(v.toPrecision(4));
const trainingSet = fingerprintSet(fps);

// ---- the approved-drug reference: share under 700 Da in the domain
const drugs = approvedDrugs();
const drugRecords: { struct_id: string; mw: number; nearest: number; in_class: boolean }[] = [];
for (const [at, drug] of drugs.entries()) {
  const compound = prepareCompound(rdkit, {
    index: at + 1,
    line: at + 2,
    candidateId: drug.struct_id,
    name: drug.name,
    smiles: drug.smiles,
    metadata: {},
  });
  if (!compound.ok) continue;
  const inClass = classDomainReason(compound) === null;
  const f = inClass ? tdcFeatures(rdkit, drug.smiles) : null;
  drugRecords.push({
    struct_id: drug.struct_id,
    mw: compound.chem.descriptors.average_mw,
    nearest: f?.ok ? round(maxTanimoto(packBits(f.bits), trainingSet)) : 0,
    in_class: inClass && f?.ok === true,
  });
}
const mwAt = TDC_DESCRIPTORS.indexOf("amw");
const mws = compounds.map((c) => c.dense[mwAt] ?? 0);
const mwRange = [round(Math.min(...mws)), round(Math.max(...mws))] as const;
const under700 = drugRecords.filter((d) => d.mw < 700);
const inDomain = under700.filter(
  (d) => d.in_class && d.nearest >= floor && d.mw >= mwRange[0] && d.mw <= mwRange[1],
).length;
console.log(
  `approved drugs: ${drugs.length}, parsed ${drugRecords.length}, under 700 Da ${under700.length}, in domain ${inDomain}`,
);

const file = {
  generated_by: "packages/science/scripts/fit-solubility-models.ts",
  training_set: { file: "aqsoldb-train.csv", sha256, ...curation },
  rdkit_version: rdkit.version(),
  descriptors: [...TDC_DESCRIPTORS],
  adopted,
  scaffold_cv: {
    grouping: SOLUBILITY_CV.grouping,
    folds: SOLUBILITY_CV.folds,
    seed: SOLUBILITY_CV.seed,
    groups: new Set(keys).size,
    acyclic: keys.filter((k) => k === "acyclic").length,
    drug_like: drugLike.filter(Boolean).length,
    network_epochs: epochs,
    figures,
  },
  domain: {
    min_tanimoto: floor,
    mw_range: mwRange,
    random_pair_p99: randomPair,
    bins: DOMAIN_BINS,
    curve,
    approved_drugs: {
      reference: "drugcentral-structures-approval-targets.csv.gz (FDA, EMA or PMDA approved)",
      approved: drugs.length,
      prepared: drugRecords.length,
      under_700: under700.length,
      in_domain: inDomain,
    },
  },
  refit: { terms: [...ESOL_TERMS], weights: finalRefit.map(round) },
  ridge: {
    lambda_per_row: finalRidge.lambdaPerRow,
    mean: finalRidge.scale.mean.map(round),
    scale: finalRidge.scale.scale.map(round),
    intercept: round(finalRidge.intercept),
    weights: finalRidge.weights.map(round),
  },
  network: {
    ...NETWORK,
    epoch: finalNet.epoch,
    mean: finalNet.scale.mean.map(round),
    scale: finalNet.scale.scale.map(round),
    y_mean: round(finalNet.yMean),
    y_sd: round(finalNet.ySd),
    mlp: {
      hidden: finalNet.network.hidden,
      dense: finalNet.network.dense,
      w1: finalNet.network.w1.map(weight),
      b1: finalNet.network.b1.map(weight),
      w2: finalNet.network.w2.map(weight),
      b2: weight(finalNet.network.b2),
    },
  },
  training_bits: compounds.map((c) => encodeOnBits(c.bits)),
  wall_seconds: Math.round((Date.now() - started) / 1000),
};
writeFileSync(new URL("../data/solubility-models.json", import.meta.url), `${JSON.stringify(file)}\n`);
const cv = {
  generated_by: "packages/science/scripts/fit-solubility-models.ts",
  what: "per training compound (a parent of aqsoldb-train.csv): its rows, group, fold, drug-likeness, log S, nearest training-fold Tanimoto and every candidate's out-of-fold prediction",
  candidates: SOLUBILITY_CANDIDATES,
  compounds: compounds.map((c, i) => ({
    rows: c.rows,
    group: c.group,
    fold: folds[i],
    drug_like: c.drugLike,
    log_s: round(c.logS),
    nearest: round(nearest[i] ?? 0),
    predicted: SOLUBILITY_CANDIDATES.map((name) => round(oof[name][i] ?? 0)),
  })),
};
writeFileSync(new URL("../data/solubility-cv.json", import.meta.url), `${JSON.stringify(cv)}\n`);
// Derived from DrugCentral (CC BY-SA 4.0): its own file under that licence, never merged into the others.
const drugDomain = {
  generated_by: "packages/science/scripts/fit-solubility-models.ts",
  licence: "CC BY-SA 4.0",
  attribution: "Avram et al., Nucleic Acids Res. 2023, 51, D1276 (DrugCentral 2023)",
  source: "drugcentral-structures-approval-targets.csv.gz",
  what: "per approved drug RDKit prepares: struct_id, parent MW, nearest Tanimoto to the solubility model's training parents, inside the organic classes",
  drugs: drugRecords,
};
writeFileSync(
  new URL("../data/solubility-drug-domain.json", import.meta.url),
  `${JSON.stringify(drugDomain)}\n`,
);
console.log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
