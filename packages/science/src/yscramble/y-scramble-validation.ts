import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ModuleRunDefinition, type ParsedCompound } from "../define-module.ts";
import { type Fingerprint, packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { round } from "../numeric/round.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { CHEMBL2321810_Y_SCRAMBLE } from "./chembl-validation.ts";
import { Y_SCRAMBLE_SETTINGS, yScramble } from "./y-scramble.ts";

const ID = "y_scramble_validation";

/**
 * Fewest compounds with a measured value for an assay to be modelled: with 5-fold CV each fold
 * then holds out ≥ 4 compounds and trains on ≥ 16; below that a q² is noise, not evidence.
 */
export const MIN_COMPOUNDS = 20;
/**
 * Most compounds per assay that enter the model (the first ones in portfolio order). The fit
 * costs about n³/2 multiply–adds and a few n × n matrices of doubles (dual ridge, ridge-cv.ts):
 * 32 MB each at 2,000. Measured by bench/y-scramble.bench.ts on the shared 2-core machine:
 * finish() 1.6 s for 1,017 compounds and 11.7 s for 2,000 per assay (load ~3; 5.6 s and 28.7 s
 * at load ~10).
 */
export const MAX_COMPOUNDS = 2000;

/** The per-compound work (worker thread): the parent's Morgan bits, only when it has activities. */
export interface YScrambleAssessment {
  readonly finding: Omit<YScrambleFinding, "entered_model">;
  /** On-bits of the parent's Morgan fingerprint; null when unparseable or without activities. */
  readonly on_bits: readonly number[] | null;
  /** The finite activities of the compound, assay id → value. */
  readonly activities: Readonly<Record<string, number>>;
}

export interface YScrambleFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Assays with a measured value for this compound (from the staged assays.csv). */
  readonly assays: readonly string[];
  /**
   * Assays whose compound set this compound entered (it was within the first MAX_COMPOUNDS with a
   * value); the summary says whether that assay reached MIN_COMPOUNDS and was modelled, and holds
   * the compound's out-of-fold prediction under `assays.<id>.compounds`.
   */
  readonly entered_model: readonly string[];
}

export interface CompoundPrediction {
  readonly candidate_id: string;
  readonly evidence_id: string;
  readonly measured: number;
  /** Mean over the CV repetitions of the prediction made by models that did not see this compound. */
  readonly out_of_fold: number;
}

export type AssayResult =
  | {
      readonly status: "assessed";
      readonly compounds: number;
      /** Compounds with a value that were left out because the assay passed MAX_COMPOUNDS. */
      readonly over_cap: number;
      readonly q2: number;
      readonly q2_per_repeat: readonly number[];
      readonly rmse: number;
      /** Golbraikh & Tropsha (2002): q² > 0.5 is necessary (not sufficient) for a predictive model. */
      readonly q2_above_0_5: boolean;
      readonly scrambles: {
        readonly count: number;
        readonly max_q2: number;
        readonly mean_q2: number;
        readonly p95_q2: number;
        readonly q2: readonly number[];
      };
      readonly verdict: "pass" | "fail";
      readonly p_value: number;
      readonly compounds_out_of_fold: readonly CompoundPrediction[];
    }
  | { readonly status: "not_assessed"; readonly compounds: number; readonly reason: string };

export interface YScrambleSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly settings: typeof Y_SCRAMBLE_SETTINGS & {
    readonly min_compounds: number;
    readonly max_compounds: number;
    readonly features: string;
  };
  /** One entry per assay id seen in the compounds' activities, sorted by id. */
  readonly assays: Readonly<Record<string, AssayResult>>;
  readonly method: MethodCard;
}

function method(): MethodCard {
  const v = CHEMBL2321810_Y_SCRAMBLE;
  const s = Y_SCRAMBLE_SETTINGS;
  return {
    what:
      "Is there a real structure–activity signal in each staged assay, or could a model fit noise as well? " +
      "Per assay, a ridge regression on the parents' Morgan fingerprints (radius 2, 2,048 bits; λ = " +
      `${s.lambda}, fixed) is cross-validated (${s.repeats} × ${s.folds}-fold, seeded) giving q² and RMSE; then ` +
      `the activities are shuffled ${s.scrambles} times and the same pipeline is refitted on each shuffle. ` +
      "The verdict is `pass` only when the real q² is higher than every scrambled q²; the p-value is " +
      "(1 + scrambles at least as good) / (1 + scrambles). Each compound's out-of-fold prediction is listed.",
    citations: [
      "Rücker, Rücker & Meringer, J. Chem. Inf. Model. 2007, 47, 2345 (y-randomization)",
      "Hoerl & Kennard, Technometrics 1970, 12, 55 (ridge regression)",
      "Golbraikh & Tropsha, J. Mol. Graph. Model. 2002, 20, 269 (cross-validated q², q² > 0.5 not sufficient)",
      "Saunders, Gammerman & Vovk, ICML 1998 (ridge regression in dual variables)",
      "An, Liu & Venkatesh, Pattern Recognit. 2007, 40, 2154 (exact fast k-fold CV of kernel ridge / LS-SVM)",
      "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
      "Free & Wilson, J. Med. Chem. 1964, 7, 395; ChEMBL series CHEMBL2321810 as shipped in RDKit Contrib/FreeWilson (validation data)",
    ],
    data: ["chembl2321810.smi", "chembl2321810-act.csv"],
    validation:
      `On ChEMBL series CHEMBL2321810 (${v.compounds} compounds, pIC50-like Act): q² ${v.q2.toFixed(3)}, RMSE ` +
      `${v.rmse.toFixed(3)}; ${v.scrambles} scrambles q² max ${v.max_scramble_q2.toFixed(3)}, mean ` +
      `${v.mean_scramble_q2.toFixed(3)}: verdict ${v.verdict}, p = ${v.p_value.toFixed(4)}. The same activities ` +
      `randomly permuted once (negative control) give q² ${v.negative_control_q2.toFixed(3)}, verdict ` +
      `${v.negative_control_verdict} (p = ${v.negative_control_p_value.toFixed(2)}). On the first 300 compounds (2 × 5-fold) the ` +
      "Morgan bits equal native RDKit's and every out-of-fold prediction equals numpy's closed-form primal " +
      "ridge within 1e-6; tests: yscramble/chembl-validation.validation.test.ts, yscramble/ridge-cv.validation.test.ts.",
    limits:
      "A pass says the fingerprints carry signal about the assay, not that the model predicts new chemistry: " +
      "random folds of a congeneric series overstate external predictivity (Golbraikh & Tropsha 2002). λ is " +
      "fixed, not tuned, so q² is conservative. Compounds past the first " +
      `${MAX_COMPOUNDS} with a value per assay are not used; assays with fewer than ${MIN_COMPOUNDS} are not ` +
      "assessed; each assay is fitted separately (bench: 1.6 s for 1,017 compounds, 11.7 s for 2,000, on a " +
      "shared 2-core machine). Activities are taken as given (log scale, higher = more active); replicates, censored values " +
      "and assay conditions are the staging's business. Per-compound predictions are in the summary because " +
      "they exist only once every compound has been read.",
  };
}

/** The compound's finite activities; own properties only, whatever the assay ids are called. */
function finiteActivities(compound: PreparedCompound): Record<string, number> {
  return Object.fromEntries(
    Object.entries(compound.row.activities ?? {}).filter(([, value]) => Number.isFinite(value)),
  );
}

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
function assessYScramble(compound: ParsedCompound): YScrambleAssessment {
  const activities = finiteActivities(compound);
  const assays = Object.keys(activities).sort();
  return {
    finding: { ...findingBase(ID, compound), status: "assessed", reason: null, assays },
    on_bits: assays.length === 0 ? null : compoundOnBits(compound),
    activities,
  };
}

interface AssayRows {
  readonly rows: number[];
  readonly values: number[];
  overCap: number;
}

/**
 * The module, with the assay size limits as a parameter so tests can reach the cap cheaply;
 * the registered module uses MIN_COMPOUNDS and MAX_COMPOUNDS.
 */
export function yScrambleModule(
  limits: { readonly min: number; readonly max: number } = { min: MIN_COMPOUNDS, max: MAX_COMPOUNDS },
) {
  return defineModule<YScrambleFinding, YScrambleAssessment, YScrambleSummary>({
    id: ID,
    version: "1.0.0",
    description: "Y-scrambling of a ridge QSAR model on Morgan fingerprints, per staged assay",
    method,
    requiredInputs: ["portfolio", "assays"],
    riskChannel: "cross_cutting",
    notAssessed: (base, compound) => ({
      ...base,
      assays: Object.keys(finiteActivities(compound)).sort(),
      entered_model: [],
    }),
    assess: assessYScramble,
    createRun: () => yScrambleRun(limits),
  });
}

/** Per staged assay: ridge on Morgan bits, repeated CV and y-scrambling (Rücker et al. 2007). */
export const yScrambleValidation = yScrambleModule();

function yScrambleRun(limits: {
  readonly min: number;
  readonly max: number;
}): ModuleRunDefinition<YScrambleFinding, YScrambleAssessment, YScrambleSummary> {
  const fingerprints: Fingerprint[] = [];
  const ids: { candidate_id: string; evidence_id: string }[] = [];
  const byAssay = new Map<string, AssayRows>();
  // An assay every compound of which is unparseable or unmodelled still gets its summary entry.
  const listAssays = (assays: readonly string[]) => {
    for (const assay of assays)
      if (!byAssay.has(assay)) byAssay.set(assay, { rows: [], values: [], overCap: 0 });
  };
  const merge = (assessment: YScrambleAssessment): YScrambleFinding => {
    const { finding } = assessment;
    const entered: string[] = [];
    if (assessment.on_bits !== null) {
      // Kept only for compounds that enter some assay's model, so memory is bounded by the cap.
      const row = fingerprints.length;
      for (const assay of finding.assays) {
        let entry = byAssay.get(assay);
        if (entry === undefined) {
          entry = { rows: [], values: [], overCap: 0 };
          byAssay.set(assay, entry);
        }
        if (entry.rows.length >= limits.max) {
          entry.overCap++;
          continue;
        }
        entry.rows.push(row);
        entry.values.push(assessment.activities[assay] ?? Number.NaN);
        entered.push(assay);
      }
      if (entered.length > 0) {
        fingerprints.push(packBits(assessment.on_bits));
        ids.push({ candidate_id: finding.candidate_id, evidence_id: finding.evidence_id });
      }
    } else listAssays(finding.assays);
    return { ...finding, entered_model: entered };
  };
  return {
    merge,
    notAssessed(finding) {
      listAssays(finding.assays);
      return finding;
    },
    finish(counts): YScrambleSummary {
      const assays: Record<string, AssayResult> = Object.fromEntries(
        [...byAssay.keys()]
          .sort()
          .map((assay) => [
            assay,
            assayResult(byAssay.get(assay) as AssayRows, fingerprints, ids, limits.min),
          ]),
      );
      return {
        ...counts,
        settings: {
          ...Y_SCRAMBLE_SETTINGS,
          min_compounds: limits.min,
          max_compounds: limits.max,
          features: "Morgan radius 2, 2,048 bits, of the parent (RDKit WebAssembly)",
        },
        assays,
        method: method(),
      };
    },
  };
}

function assayResult(
  entry: AssayRows,
  fingerprints: readonly Fingerprint[],
  ids: readonly { candidate_id: string; evidence_id: string }[],
  minCompounds: number,
): AssayResult {
  const n = entry.rows.length;
  if (n < minCompounds)
    return {
      status: "not_assessed",
      compounds: n,
      reason: `${n} parsed compounds with a value; y-scrambling needs at least ${minCompounds}`,
    };
  if (entry.values.every((v) => v === entry.values[0]))
    return { status: "not_assessed", compounds: n, reason: "every activity is the same: q² is undefined" };
  const result = yScramble(
    entry.rows.map((row) => fingerprints[row] as Fingerprint),
    entry.values,
  );
  return {
    status: "assessed",
    compounds: n,
    over_cap: entry.overCap,
    q2: round(result.model.q2, 4),
    q2_per_repeat: result.model.q2_per_repeat.map((v) => round(v, 4)),
    rmse: round(result.model.rmse, 4),
    q2_above_0_5: result.model.q2 > 0.5,
    scrambles: {
      count: result.scrambles.count,
      max_q2: round(result.scrambles.max_q2, 4),
      mean_q2: round(result.scrambles.mean_q2, 4),
      p95_q2: round(result.scrambles.p95_q2, 4),
      q2: result.scrambles.q2.map((v) => round(v, 4)),
    },
    verdict: result.verdict,
    p_value: round(result.p_value, 6),
    compounds_out_of_fold: entry.rows.map((row, at) => ({
      ...(ids[row] as { candidate_id: string; evidence_id: string }),
      measured: entry.values[at] ?? Number.NaN,
      out_of_fold: round(result.out_of_fold[at] ?? Number.NaN, 4),
    })),
  };
}
