import { compoundLogd } from "../admet/compound-logd.ts";
import { logdModel } from "../admet/logd-model.ts";
import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { CT_TOX_MODEL } from "../clinical/clinical-precedent-prior.ts";
import { clinToxModel } from "../clinical/clintox-model.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { predictLogistic } from "../fingerprint/logistic-regression.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { maxTanimoto } from "../fingerprint/reference-set.ts";
import { similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { round } from "../numeric/round.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import {
  predictCompoundSolubility,
  solubilityDomainRule,
  solubilityModels,
} from "../solubility/solubility-models.ts";
import { TOX21_MODEL, tox21Model } from "../toxicity/tox21-model.ts";
import { conformalCalibration } from "./conformal-calibration.ts";

/** The applicability domain of one trained model's estimate for one compound. */
export interface EstimateDomain {
  readonly model: string;
  /** Highest Tanimoto (Morgan radius 2, 2,048 bits) to the model's training compounds. */
  readonly nearest_tanimoto: number;
  /** Inside the model's own domain limit (the summary's `domain_rules` says which). */
  readonly in_domain: boolean;
  /** The rule that decided `in_domain`, from the model's own training data (issue 24 item 1). */
  readonly domain_rule: string;
}

/**
 * A value-giving estimate out of its domain (issue 24 item 1): `value` and intervals are null and
 * the model's number is kept here, for audit only; null in the domain.
 */
interface RawOutOfDomain {
  readonly raw_out_of_domain_value: number | null;
}

export interface SolubilityUncertainty extends EstimateDomain, RawOutOfDomain {
  /** The adopted solubility model's log S; null out of its domain (issue 24 item 1: no finding there). */
  readonly value: number | null;
  /**
   * Conformal intervals (log S, mol/L) at 80% and 90% nominal coverage, calibrated on the adopted
   * model's scaffold-held-out residuals; null out of the domain.
   */
  readonly interval_80: readonly [number, number] | null;
  readonly interval_90: readonly [number, number] | null;
}

export interface LogdUncertainty extends EstimateDomain, RawOutOfDomain {
  /** Null out of the model's domain. */
  readonly value: number | null;
  /** Split-conformal intervals (log D units) at 80% and 90% nominal coverage; null out of the domain. */
  readonly interval_80: readonly [number, number] | null;
  readonly interval_90: readonly [number, number] | null;
}

export interface UncertaintyFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** One entry per trained-model estimate, keyed `<module>.<key>`. */
  readonly estimates: {
    readonly "solubility_assessment.log_s": SolubilityUncertainty;
    readonly "clinical_precedent_prior.ct_tox_probability": EstimateDomain &
      RawOutOfDomain & { readonly value: number | null };
    readonly "toxicity_profile.tox21_fingerprint_model": EstimateDomain;
    /** Present while the logD7.4 model is adopted (it beat WLOGP read as log D on held-out scaffolds). */
    readonly "admet_predictions.logd74"?: LogdUncertainty;
  } | null;
  /** Keys of `estimates` outside their model's domain. */
  readonly out_of_domain: readonly string[] | null;
}

export interface UncertaintySummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Per estimate key: compounds outside that model's domain. */
  readonly out_of_domain: Readonly<Record<string, number>>;
  /** Per estimate key: the rule its `in_domain` applies. */
  readonly domain_rules: Readonly<Record<string, string>>;
  readonly conformal: {
    readonly solubility_half_width: Readonly<Record<string, number>>;
    /** The logD7.4 model's half-widths and their coverage on its scaffold-split test rows. */
    readonly logd74: {
      readonly half_width: Readonly<Record<string, number>>;
      readonly calibration: string;
      readonly test_coverage: Readonly<Record<string, number>>;
    };
    readonly calibration: string;
    readonly validation_chembl2321810: ReturnType<typeof conformalCalibration>["validation_chembl2321810"];
  };
  readonly method: MethodCard;
}

const ID = "uncertainty_quantification";

function method(): MethodCard {
  const cal = conformalCalibration();
  const v = cal.validation_chembl2321810;
  const figure = (rows: typeof v.split_conformal) =>
    rows.map((r) => `${Math.round(r.level * 100)}% → ${(r.coverage * 100).toFixed(1)}%`).join(", ");
  return {
    what:
      "For every estimate of a model trained here, how far to trust it: the applicability domain (highest " +
      "Tanimoto on Morgan fingerprints to the model's training compounds, each model with its own floor) and, " +
      "for the regression models (solubility log S, logD7.4), conformal prediction intervals at 80% and 90%.",
    citations: [
      "Papadopoulos, Proedrou, Vovk & Gammerman, ECML 2002 (inductive / split conformal prediction)",
      "Lei, G'Sell, Rinaldo, Tibshirani & Wasserman, J. Am. Stat. Assoc. 2018, 113, 1094 (split-conformal quantile)",
      "Vovk, Ann. Math. Artif. Intell. 2015, 74, 9 (cross-conformal predictors)",
      "Sheridan, Feuston, Maiorov & Kearsley, J. Chem. Inf. Comput. Sci. 2004, 44, 1912 (similarity to the training set as domain)",
      "Jaworska, Nikolova-Jeliazkova & Aldenberg, ATLA 2005, 33, 445 (descriptor-range applicability domain)",
      "Free & Wilson, J. Med. Chem. 1964, 7, 395; ChEMBL series CHEMBL2321810 as shipped in RDKit Contrib/FreeWilson (validation data)",
    ],
    data: [
      "conformal-calibration.json",
      "chembl2321810.smi",
      "chembl2321810-act.csv",
      "solubility-models.json",
      "clintox-fingerprint-model.json",
      "tox21-fingerprint-model.json",
      "lipo-logd-model.json",
    ],
    validation:
      `Solubility half-widths ${Object.entries(cal.solubility.half_width)
        .map(([level, h]) => `${Math.round(Number(level) * 100)}% ± ${h.toFixed(2)}`)
        .join(
          ", ",
        )} log units (${cal.solubility.calibration}); calibrated on the other folds, the intervals hold on each ` +
      `held-out fold's in-domain compounds for ${cal.solubility.held_out_fold_coverage
        .map(
          (r) =>
            `${Math.round(r.level * 100)}% → ${(r.coverage_in_domain * 100).toFixed(1)}% of ${r.in_domain}`,
        )
        .join(", ")}. ` +
      `Empirical coverage on ${v.folds} held-out folds of CHEMBL2321810 (${v.split_conformal[0]?.held_out} ` +
      `compounds, seed ${v.seed}; ${v.model}): split-conformal ${figure(v.split_conformal)}; the ` +
      `cross-conformal form used for solubility ${figure(v.cross_conformal)}. Test: ` +
      "uncertainty/conformal.validation.test.ts recomputes both and requires each within 3 points of nominal. logD7.4 " +
      `split-conformal (valid residuals) on its ${logdModel().file.test.rows} scaffold-split test rows: ` +
      Object.entries(logdModel().file.conformal.test_coverage)
        .map(([level, c]) => `${Math.round(Number(level) * 100)}% → ${(c * 100).toFixed(1)}%`)
        .join(", ") +
      " (admet/logd-model.validation.test.ts recomputes it).",
    limits:
      "Conformal coverage is marginal (on average over compounds like the calibration set), not per compound, " +
      "and holds for compounds exchangeable with AqSolDB's parents; out of domain it is not guaranteed. The solubility " +
      "intervals use scaffold-held-out residuals around the model fitted on all data (cross-conformal), whose " +
      "guarantee is approximate. Out of a model's domain (the summary's domain_rules, each from that model's own " +
      "training data) no value or interval is given for log S, log D7.4 or CT_TOX: the model's number is kept " +
      "under raw_out_of_domain_value, for audit only (issue 24 item 1). Only the log S the " +
      "report uses (the adopted model) gets an interval, not the other fits listed beside it. The classifiers (CT_TOX, Tox21) get a domain, not an interval. The logD7.4 intervals are split-conformal on the 420 valid " +
      "rows of the scaffold split, which also chose the model's λ (slightly optimistic); their coverage on the " +
      "420 test rows is reported beside them.",
  };
}

function domainRules(): Record<string, string> {
  return {
    "solubility_assessment.log_s": solubilityDomainRule(),
    "clinical_precedent_prior.ct_tox_probability": similarityDomainRule(clinToxModel().file.domain),
    "toxicity_profile.tox21_fingerprint_model": similarityDomainRule(tox21Model().file.domain),
    "admet_predictions.logd74": similarityDomainRule(logdModel().file.domain),
  };
}

/** Domains and conformal intervals of every trained-model estimate of each parsed compound. */
export const uncertaintyQuantification = defineModule<
  UncertaintyFinding,
  UncertaintyFinding,
  UncertaintySummary
>({
  id: ID,
  version: "1.0.0",
  description: "Applicability domain of every trained-model estimate and conformal intervals for regression",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "cross_cutting",
  notAssessed: (base) => ({ ...base, estimates: null, out_of_domain: null }),
  assess: assessUncertainty,
  createRun() {
    const outOfDomain: Record<string, number> = {};
    return {
      merge(finding) {
        if (finding.status !== "assessed") return finding;
        for (const key of finding.out_of_domain ?? []) outOfDomain[key] = (outOfDomain[key] ?? 0) + 1;
        return finding;
      },
      finish(counts): UncertaintySummary {
        const cal = conformalCalibration();
        return {
          ...counts,
          out_of_domain: outOfDomain,
          domain_rules: domainRules(),
          conformal: {
            solubility_half_width: cal.solubility.half_width,
            logd74: {
              half_width: logdModel().file.conformal.half_width,
              calibration: logdModel().file.conformal.calibration,
              test_coverage: logdModel().file.conformal.test_coverage,
            },
            calibration: cal.solubility.calibration,
            validation_chembl2321810: cal.validation_chembl2321810,
          },
          method: method(),
        };
      },
    };
  },
});

/** The logD7.4 estimate (shared with admet_predictions) with its split-conformal intervals. */
function logdUncertainty(compound: PreparedCompound & { ok: true }): LogdUncertainty {
  const logd = compoundLogd(compound);
  const h = logdModel().file.conformal.half_width;
  const h80 = h["0.8"] ?? Number.POSITIVE_INFINITY;
  const h90 = h["0.9"] ?? Number.POSITIVE_INFINITY;
  const v = round(logd.value, 3);
  return {
    model: logd.model,
    value: logd.in_domain ? v : null,
    interval_80: logd.in_domain ? [round(logd.value - h80, 3), round(logd.value + h80, 3)] : null,
    interval_90: logd.in_domain ? [round(logd.value - h90, 3), round(logd.value + h90, 3)] : null,
    nearest_tanimoto: round(logd.nearest_tanimoto, 3),
    in_domain: logd.in_domain,
    domain_rule: logd.domain_rule,
    raw_out_of_domain_value: logd.in_domain ? null : v,
  };
}

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
function assessUncertainty(compound: ParsedCompound): UncertaintyFinding {
  // Outside the organic classes no model here has a domain: no estimate or interval is given (issue 24 item 2).
  const outOfClass = classDomainReason(compound);
  if (outOfClass !== null)
    return {
      ...findingBase(ID, compound),
      status: "assessed",
      reason: outOfClass,
      estimates: null,
      out_of_domain: [
        "solubility_assessment.log_s",
        "clinical_precedent_prior.ct_tox_probability",
        "toxicity_profile.tox21_fingerprint_model",
        ...(logdModel().file.adopted ? ["admet_predictions.logd74"] : []),
      ],
    };
  const onBits = compoundOnBits(compound);
  const fp = packBits(onBits);
  const models = solubilityModels();
  const cal = conformalCalibration();
  // the same prediction solubility_assessment made for this parent (lastParentCache)
  const solubility = predictCompoundSolubility(compound);
  const logS = solubility.value;
  const h80 = cal.solubility.half_width["0.8"] ?? Number.POSITIVE_INFINITY;
  const h90 = cal.solubility.half_width["0.9"] ?? Number.POSITIVE_INFINITY;
  const clintox = clinToxModel();
  const ctSimilarity = maxTanimoto(fp, clintox.training);
  const tox21 = tox21Model();
  const toxSimilarity = maxTanimoto(fp, tox21.training);
  const ctInDomain = ctSimilarity >= clintox.file.domain.min_tanimoto;
  const ctTox = round(predictLogistic(clintox.file.tasks[0] ?? { bias: 0, weights: [] }, onBits), 3);
  const estimates = {
    "solubility_assessment.log_s": {
      model: models.adopted,
      value: solubility.in_domain ? round(logS, 3) : null,
      interval_80: solubility.in_domain ? ([round(logS - h80, 3), round(logS + h80, 3)] as const) : null,
      interval_90: solubility.in_domain ? ([round(logS - h90, 3), round(logS + h90, 3)] as const) : null,
      nearest_tanimoto: round(solubility.nearest_tanimoto, 3),
      in_domain: solubility.in_domain,
      domain_rule: domainRules()["solubility_assessment.log_s"] as string,
      raw_out_of_domain_value: solubility.in_domain ? null : round(logS, 3),
    },
    "clinical_precedent_prior.ct_tox_probability": {
      model: CT_TOX_MODEL,
      value: ctInDomain ? ctTox : null,
      nearest_tanimoto: round(ctSimilarity, 3),
      in_domain: ctInDomain,
      domain_rule: similarityDomainRule(clintox.file.domain),
      raw_out_of_domain_value: ctInDomain ? null : ctTox,
    },
    "toxicity_profile.tox21_fingerprint_model": {
      model: TOX21_MODEL,
      nearest_tanimoto: round(toxSimilarity, 3),
      in_domain: toxSimilarity >= tox21.file.domain.min_tanimoto,
      domain_rule: similarityDomainRule(tox21.file.domain),
    },
    ...(logdModel().file.adopted ? { "admet_predictions.logd74": logdUncertainty(compound) } : {}),
  };
  const out = Object.entries(estimates).flatMap(([key, e]) => (e.in_domain ? [] : [key]));
  return {
    ...findingBase(ID, compound),
    status: "assessed",
    reason: null,
    estimates,
    out_of_domain: out,
  };
}
