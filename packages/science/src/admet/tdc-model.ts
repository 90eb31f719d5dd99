import { readDataFile } from "../data/read-data-file.ts";
import { sigmoid } from "../fingerprint/logistic-regression.ts";
import { decodeOnBits, packBits } from "../fingerprint/morgan.ts";
import { type FingerprintSet, fingerprintSet, maxTanimoto } from "../fingerprint/reference-set.ts";
import { type SimilarityDomain, similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { type ClassifierCall, classifierCall } from "../uncertainty/classifier-call.ts";
import { modelSkill, reportedPerCompound, reportingDecision, SKILL_MARGIN_RULE } from "./skill-margin.ts";
import { TDC_DATASETS, type TdcDataset } from "./tdc-datasets.ts";
import { TDC_DOMAIN_FILE, tdcDomainFile } from "./tdc-domain-file.ts";
import type { TdcModelFile } from "./tdc-model-file.ts";
import { predictorOutput } from "./tdc-predictor.ts";

/** `data/tdc-<key>-model.json`, the file name of a dataset's model. */
export function tdcModelFileName(key: string): string {
  return `tdc-${key.replaceAll("_", "-")}-model.json`;
}

export function readTdcModelFile(key: string): TdcModelFile {
  return JSON.parse(readDataFile(tdcModelFileName(key))) as TdcModelFile;
}

interface LoadedTdcModel {
  /**
   * The model file, its `domain` the floor of data/tdc-domain-floors.json (issue 36 item 5: where the
   * scaffold-test error rises, never below random pairs); the file's own 5th-percentile limit is
   * kept as `trained_domain`.
   */
  readonly file: Omit<TdcModelFile, "train_bits" | "row_split" | "domain"> & {
    readonly domain: SimilarityDomain;
    readonly trained_domain: TdcModelFile["domain"];
  };
  readonly training: FingerprintSet;
}

/** How every TDC model's limit was chosen, in the few words each output's domain_rule carries. */
export const TDC_DOMAIN_BASIS = "where the scaffold-test error rises, at least random pairs' 95th percentile";

// Loaded once per worker thread on first use (the files are read-only method data, as the
// Tox21 and BBB models are): parsing and the training fingerprints cost ~50 ms per model once.
const loaded = new Map<string, LoadedTdcModel>();

export function tdcModel(key: string): LoadedTdcModel {
  const hit = loaded.get(key);
  if (hit !== undefined) return hit;
  const { train_bits, row_split, domain, ...rest } = readTdcModelFile(key);
  const floor = tdcDomainFile().models[key];
  if (floor === undefined) throw new Error(`no domain floor for TDC model ${key} in ${TDC_DOMAIN_FILE}`);
  const file = {
    ...rest,
    domain: { min_tanimoto: floor.min_tanimoto, basis: TDC_DOMAIN_BASIS },
    trained_domain: domain,
  };
  const model = { file, training: fingerprintSet(train_bits.map((bits) => packBits(decodeOnBits(bits)))) };
  loaded.set(key, model);
  return model;
}

/** The standardized, clipped descriptor row the model was trained on. */
export function standardizedRow(
  file: Pick<TdcModelFile, "standardization">,
  raw: readonly number[],
): number[] {
  const { mean, scale } = file.standardization;
  return raw.map((v, j) => Math.max(-6, Math.min(6, (v - (mean[j] ?? 0)) / (scale[j] ?? 1))));
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** What every TDC model output carries (issue 26 item 6). */
interface TdcOutputBase {
  readonly model_id: string;
  /** The unit of `probability` or `value` (and `interval`): the dataset's (tdc-datasets.ts). */
  readonly unit: string;
  /** What the label is (issue 36 item 7): the dataset's `what`, e.g. hERG's in-vitro IC50 cut. */
  readonly label: string;
  /** sha256 of the training data file, as in data/PROVENANCE.md. */
  readonly training_sha256: string;
  readonly training_file: string;
  /** Max Tanimoto (Morgan radius 2) to the training compounds. */
  readonly nearest_tanimoto: number;
  /** nearest_tanimoto ≥ the model's floor (data/tdc-domain-floors.json, where its scaffold-test error rises). */
  readonly in_domain: boolean;
  /** The rule that decided `in_domain`, from the model's own training compounds (issue 24 item 1). */
  readonly domain_rule: string;
}

export interface TdcClassification extends TdcOutputBase {
  /** Platt-calibrated probability of the positive label (inhibitor, blocker, mutagen, DILI concern). */
  readonly probability: number;
  /**
   * The one call (uncertainty/classifier-call.ts, issue 36 item 4): positive or negative only when
   * the probability's side of the threshold and the conformal set agree, else uncertain.
   */
  readonly call: ClassifierCall;
  /** Labels the label-conditional split-conformal predictor cannot exclude at `conformal_level`. */
  readonly prediction_set: readonly ("positive" | "negative")[];
  readonly conformal_level: number;
}

export interface TdcRegression extends TdcOutputBase {
  readonly value: number;
  /** Split-conformal interval at `conformal_level`. */
  readonly interval: readonly [number, number];
  readonly conformal_level: number;
}

/** The dataset a model was trained on, by its key. */
export function tdcDataset(key: string): TdcDataset {
  const d = TDC_DATASETS.find((x) => x.key === key);
  if (d === undefined) throw new Error(`no TDC dataset ${key}`);
  return d;
}

function base(m: LoadedTdcModel, bits: readonly number[]): TdcOutputBase {
  const similarity = maxTanimoto(packBits(bits), m.training);
  return {
    model_id: m.file.model_id,
    unit: tdcDataset(m.file.key).unit,
    label: tdcDataset(m.file.key).what,
    training_sha256: m.file.sha256,
    training_file: m.file.file,
    nearest_tanimoto: r3(similarity),
    in_domain: similarity >= m.file.domain.min_tanimoto,
    domain_rule: similarityDomainRule(m.file.domain),
  };
}

/** The raw (unrounded) calibrated probability of a classifier. */
export function tdcProbability(
  file: TdcModelFile | LoadedTdcModel["file"],
  bits: readonly number[],
  raw: readonly number[],
) {
  const z = predictorOutput(file.model.predictor, { bits, x: standardizedRow(file, raw) });
  const c = file.calibration ?? { a: 1, b: 0 };
  return sigmoid(c.a * z + c.b);
}

/** The raw value of a regressor in the data file's units. */
export function tdcValue(
  file: TdcModelFile | LoadedTdcModel["file"],
  bits: readonly number[],
  raw: readonly number[],
) {
  const z = predictorOutput(file.model.predictor, { bits, x: standardizedRow(file, raw) });
  const t = file.target_scale ?? { mean: 0, sd: 1 };
  return t.mean + t.sd * z;
}

export function classifyTdc(key: string, bits: readonly number[], raw: readonly number[]): TdcClassification {
  const m = tdcModel(key);
  const p = tdcProbability(m.file, bits, raw);
  const conformal = m.file.conformal;
  const set: ("positive" | "negative")[] = [];
  if (conformal.kind === "mondrian") {
    if (1 - p <= conformal.q1) set.push("positive");
    if (p <= conformal.q0) set.push("negative");
  }
  return {
    ...base(m, bits),
    probability: r3(p),
    call: classifierCall(p, m.file.threshold ?? 0.5, set),
    prediction_set: set,
    conformal_level: conformal.level,
  };
}

export function regressTdc(key: string, bits: readonly number[], raw: readonly number[]): TdcRegression {
  const m = tdcModel(key);
  const v = tdcValue(m.file, bits, raw);
  const half = m.file.conformal.kind === "absolute_residual" ? m.file.conformal.half_width : Number.NaN;
  return {
    ...base(m, bits),
    value: r3(v),
    interval: [r3(v - half), r3(v + half)],
    conformal_level: m.file.conformal.level,
  };
}

/** A model's held-out figures for a summary or card, beside ADMET-AI's published figure. */
export function tdcValidation(d: TdcDataset) {
  const { file } = tdcModel(d.key);
  return {
    model_id: file.model_id,
    what: d.what,
    training_file: file.file,
    training_sha256: file.sha256,
    split: `${file.split.kind} (${file.split.train}/${file.split.valid}/${file.split.test} compounds)`,
    model: file.model.chosen,
    test: file.test,
    admet_ai: d.admet_ai,
    adopted: file.adopted,
    adoption_rule: file.adoption_rule,
    unit: d.unit,
    skill_margin: SKILL_MARGIN_RULE,
    has_skill: modelSkill(file).passes,
    /** Adopted and clearing the skill margin: only then is the output in each compound's finding. */
    reported_per_compound: reportedPerCompound(file),
    reporting: reportingDecision(file),
  };
}
