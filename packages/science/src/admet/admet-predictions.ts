import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { similarityDomainReason, similarityLimitsText } from "../fingerprint/similarity-domain.ts";
import { round } from "../numeric/round.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { predictCompoundSolubility } from "../solubility/solubility-models.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { logdDescriptorRow } from "./admet-model-features.ts";
import { bbbModel, MOLECULENET_BBBP } from "./bbb-model.ts";
import { type BioavailabilityRadar, bioavailabilityRadar } from "./bioavailability-radar.ts";
import { abbottScore, isAnionic } from "./bioavailability-score.ts";
import { type BoiledEggVerdict, boiledEggVerdict, EGG_PGP_LAYER, eggPgpLayer } from "./boiled-egg-verdict.ts";
import { compoundLogd } from "./compound-logd.ts";
import { bbbConstantBaseline, logdConstantBaseline } from "./constant-baselines.ts";
import { DOMAIN_FLOOR_RULE } from "./domain-floor.ts";
import { evaluateDrugLikeness, type RuleName, type RuleVerdict } from "./drug-likeness-rules.ts";
import { LOGD_MODEL, logdModel, MOLECULENET_LIPO } from "./logd-model.ts";
import { computeQed, qedProperties } from "./qed.ts";
import { reportedPerCompound, reportingDecision, SKILL_MARGIN_RULE } from "./skill-margin.ts";
import { logKpCmPerS } from "./skin-permeation.ts";
import { classifyCompound, type Gated, regressCompound, tdcInputs } from "./tdc-compound.ts";
import { ADMET_AI_SPLIT, SAFETY_AND_PK_DATASETS } from "./tdc-datasets.ts";
import { TDC_DOMAIN_FILE, tdcDomainText } from "./tdc-domain-file.ts";
import {
  type TdcClassification,
  type TdcRegression,
  tdcModel,
  tdcModelFileName,
  tdcValidation,
} from "./tdc-model.ts";
import type { ClassifierFigures, RegressorFigures } from "./tdc-model-file.ts";

export interface AdmetFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly qed: number | null;
  readonly wlogp: number | null;
  /** Ertl TPSA over N and O only (RDKit's default): the TPSA of Veber's and Egan's rules. */
  readonly tpsa: number | null;
  /** Ertl TPSA with polar S and P: the x axis of BOILED-Egg, as Daina & Zoete fitted it. */
  readonly tpsa_sp: number | null;
  readonly mw: number | null;
  readonly hbd: number | null;
  readonly hba: number | null;
  readonly rotatable_bonds: number | null;
  readonly fsp3: number | null;
  readonly heavy_atoms: number | null;
  /** The egg's call, vetoed for a permanent cation, with the P-gp (inhibition) layer (boiled-egg-verdict.ts). */
  readonly boiled_egg: BoiledEggVerdict | null;
  readonly rules: Readonly<Record<RuleName, RuleVerdict>> | null;
  readonly bioavailability_score: 0.11 | 0.17 | 0.55 | 0.56 | 0.85 | null;
  readonly log_kp_cm_s: number | null;
  readonly radar: BioavailabilityRadar | null;
  /**
   * log D7.4 from the model trained on Lipophilicity (it beat WLOGP read as log D on held-out scaffolds; its
   * conformal intervals are in uncertainty_quantification). Null when not assessed.
   */
  readonly logd74: {
    /** Null out of the model's domain (issue 24 item 1): no value is a finding there. */
    readonly value: number | null;
    readonly nearest_tanimoto: number;
    readonly in_domain: boolean;
    readonly domain_rule: string;
    readonly status?: "out_of_domain";
    readonly domain_reason?: string;
    /** Out of the domain only: the model's estimate, kept for audit, not a finding. */
    readonly raw_out_of_domain_value?: number;
    readonly model: typeof LOGD_MODEL;
  } | null;
  /**
   * False when the compound is outside the organic classes every model and fitted rule here was
   * built on (`molecular_logic.compound_class`, issue 24 item 2): then `reason` names the class,
   * and QED, BOILED-Egg, the Abbott score, log Kp, the radar and log D7.4 are null; null when not assessed.
   */
  readonly in_domain: boolean | null;
  /** Out of domain only: what those estimates would have been, kept for audit, not findings. */
  readonly raw_out_of_domain: {
    readonly qed: number | null;
    readonly boiled_egg: BoiledEggVerdict | null;
    readonly bioavailability_score: number | null;
    readonly log_kp_cm_s: number | null;
    readonly radar: BioavailabilityRadar | null;
    readonly logd74: AdmetFinding["logd74"];
  } | null;
  /**
   * TDC-trained models (issue 26 item 4), each present only when adopted and clearing the skill
   * margin (skill-margin.ts, issue 36 item 6; the summary's `tdc_models` says why one is absent):
   * P-gp inhibition (classifier), Caco-2 log Papp and half-life (regressors, with conformal
   * intervals), each with its `unit`. Null for a compound not assessed.
   */
  readonly pgp?: Gated<TdcClassification> | null;
  readonly caco2?: Gated<TdcRegression> | null;
  readonly half_life?: Gated<TdcRegression> | null;
}

const ADMET_TDC = SAFETY_AND_PK_DATASETS.filter((d) => d.destination === "admet_predictions");
const reportedTdc = () => ADMET_TDC.filter((d) => reportedPerCompound(tdcModel(d.key).file));

function tdcPk(
  compound: PreparedCompound & { ok: true },
): Record<string, Gated<TdcClassification | TdcRegression>> {
  const reported = reportedTdc();
  if (reported.length === 0) return {};
  const inputs = tdcInputs(compound);
  return Object.fromEntries(
    reported.map((d) => [
      d.key,
      d.task === "classification"
        ? classifyCompound(d.key, compound, inputs)
        : regressCompound(d.key, compound, inputs),
    ]),
  );
}

/** One line per TDC model of this module for the card: adopted or not, test figure beside the baselines and ADMET-AI's. */
function tdcFigures(): string {
  return ADMET_TDC.map((d) => {
    const { file } = tdcModel(d.key);
    const verdict = reportingDecision(file);
    if (d.task === "classification") {
      const t = file.test.model as ClassifierFigures;
      return (
        `${d.key}: ${verdict}; test AUROC ${t.auroc} (lower 95% bound ${file.test.auroc_lower_95}, AUPRC ${t.auprc}, ` +
        `MCC ${t.mcc}, ECE ${t.ece}) on ${file.test.rows} compounds, logistic baseline ` +
        `${(file.test.simple as ClassifierFigures).auroc}, ADMET-AI (random split) ${d.admet_ai?.value}`
      );
    }
    const t = file.test.model as RegressorFigures;
    const c = file.test.constant as RegressorFigures;
    return (
      `${d.key}: ${verdict}; test MAE ${t.mae}, RMSE ${t.rmse}, r² ${t.r2} on ${file.test.rows} compounds vs the ` +
      `training mean's MAE ${c.mae}, RMSE ${c.rmse}; ridge on descriptors MAE ${(file.test.simple as RegressorFigures).mae}` +
      (d.admet_ai === null ? "" : `; ADMET-AI (random split) MAE ${d.admet_ai.value}`) +
      `; conformal 90% coverage ${file.test.conformal_coverage}`
    );
  }).join("; ");
}

export interface AdmetSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Compounds outside the organic classes (counted in not_assessed too): no QED, BOILED-Egg or log D. */
  readonly out_of_compound_class: number;
  readonly gi_absorption_high: number;
  /** Compounds the egg's ellipses would have placed but a permanent charge vetoed (GI low, BBB no). */
  readonly boiled_egg_vetoed: number;
  readonly bbb_permeant: number;
  readonly rule_passes: Readonly<Record<string, number>>;
  readonly mean_qed: number | null;
  /** BOILED-Egg brain-access calls scored against BBBP's labels (see the method card). */
  readonly bbbp_validation: typeof BBBP_VALIDATION;
  /** The BBB model trained on BBBP beside BOILED-Egg on the same scaffold-split test rows. */
  readonly bbb_model_validation: ReturnType<typeof bbbModelValidation>;
  /** The logD7.4 model beside WLOGP read as log D on the same scaffold-split test rows. */
  readonly logd74_validation: ReturnType<typeof logdValidation>;
  /** P-gp, Caco-2 and half-life models: held-out figures beside the baselines and ADMET-AI's, adopted or not. */
  readonly tdc_models: Readonly<Record<string, ReturnType<typeof tdcValidation>>>;
  readonly method: MethodCard;
}

/**
 * The yolk's calls on BBBP (Martins et al. 2012, 2,039 compounds; parents as molecular_logic
 * chooses them). Recomputed and compared by admet/boiled-egg.validation.test.ts, so these figures cannot drift.
 */
export const BBBP_VALIDATION = {
  dataset: "bbbp.csv (Martins et al., J. Chem. Inf. Model. 2012, 52, 1686; MoleculeNet)",
  compounds: 2039,
  scored: 2039,
  // On TPSA with polar S and P, as the egg was fitted (issue 24 item 4); N,O-only TPSA gave 0.717 / 0.409.
  accuracy: 0.703,
  mcc: 0.4,
} as const;

/**
 * How many of the first 2,000 ChEMBL compounds of the Lipophilicity set change BOILED-Egg region
 * when TPSA counts polar S and P (issue 24 item 4). Recomputed with native RDKit by
 * admet/admet-rules.validation.test.ts, so the method card's figure cannot drift.
 */
export const EGG_TPSA_SP_SHIFT = {
  compounds: 2000,
  moved: { "yolk→white": 125, "white→grey": 111, "grey→yolk": 1 },
} as const;

const ID = "admet_predictions";

/** What the summary says of the BBB model: held-out figures, and why it is not in the per-compound output. */
export function bbbModelValidation() {
  const { file } = bbbModel();
  return {
    model: "bbbp_logreg_morgan2",
    what: "L2 logistic regression on the parent's Morgan radius-2 bits and 9 standardized descriptors, trained on BBBP",
    split: `MoleculeNet scaffold split (scaffold-splits.json): ${file.split.train}/${file.split.valid}/${file.split.test}`,
    test_rows: file.test.rows,
    test_positives: file.test.positives,
    test_roc_auc: file.test.roc_auc,
    test_accuracy: file.test.accuracy,
    test_mcc: file.test.mcc,
    boiled_egg_same_rows: file.boiled_egg_test,
    constant_same_rows: bbbConstantBaseline(),
    moleculenet_test_roc_auc: MOLECULENET_BBBP,
    adopted: file.adopted,
    decision: file.adopted
      ? "beats BOILED-Egg's MCC on the test rows: reported per compound"
      : "does not beat BOILED-Egg's MCC on the test rows: not reported per compound (BOILED-Egg stays the BBB call)",
    history: file.history,
  };
}

/** What the summary says of the logD7.4 model. */
export function logdValidation() {
  const { file } = logdModel();
  return {
    model: LOGD_MODEL,
    what: "kernel ridge on a Tanimoto (Morgan radius-2) kernel plus a linear kernel over 9 standardized descriptors, trained on Lipophilicity",
    split: `MoleculeNet scaffold split (scaffold-splits.json): ${file.split.train}/${file.split.valid}/${file.split.test}`,
    test_rows: file.test.rows,
    test_rmse: file.test.rmse,
    test_r2: file.test.r2,
    wlogp_as_logd_same_rows: { rmse: file.baseline_test.rmse, r2: file.baseline_test.r2 },
    training_mean_same_rows: logdConstantBaseline(),
    moleculenet_test_rmse: MOLECULENET_LIPO,
    conformal_test_coverage: file.conformal.test_coverage,
    domain_min_tanimoto: file.domain.min_tanimoto,
    adopted: file.adopted,
  };
}

let methodCard: MethodCard | null = null;

/** Built on first use: the model figures are read from their data files, not restated here. */
function method(): MethodCard {
  if (methodCard !== null) return methodCard;
  const bbb = bbbModelValidation();
  const logd = logdValidation();
  methodCard = {
    what:
      "SwissADME-style physicochemistry and rules for the parent: QED (mean weights), WLOGP, TPSA (N,O) and TPSA with S and P, MW, Lipinski " +
      "HBD/HBA, rotatable bonds, Fsp3; BOILED-Egg GI absorption and brain access (passive permeation only: the ellipses " +
      "model passive diffusion; a permanently charged parent, molecular_logic's permanent_charge, is vetoed from the " +
      "yolk and the white, GI absorption low and BBB permeant no, the reason in boiled_egg.veto and the ellipses' own " +
      `place in passive_region; the egg's P-gp layer is ${EGG_PGP_LAYER}, "unknown" outside that model's domain); Lipinski, Ghose, Veber, Egan, ` +
      "Muegge and lead-likeness verdicts with each broken limit as text; the Abbott bioavailability score; skin " +
      "permeability log Kp; the six-axis bioavailability radar; log D7.4 from a kernel ridge model trained on " +
      "AstraZeneca's Lipophilicity set (adopted: it beats WLOGP read as log D on held-out scaffolds). A BBB classifier trained " +
      "on BBBP is evaluated beside BOILED-Egg and reported only in the summary (it did not beat the egg's MCC). " +
      `Under the keys pgp, caco2 and half_life, each only when adopted and ${SKILL_MARGIN_RULE} (issue 36 item 6): ` +
      "TDC-trained P-gp inhibition (calibrated probability, 90% conformal set), Caco-2 log Papp in log10(cm/s) and " +
      "half-life in ln(h) (value, 90% conformal interval), each with its unit, in_domain, model id and the training file's sha256 (the same pipeline as cyp_assessment).",
    citations: [
      "Bickerton et al., Nat. Chem. 2012, 4, 90 (QED)",
      "Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, 868 (WLOGP, MR)",
      "Ertl, Rohde & Selzer, J. Med. Chem. 2000, 43, 3714 (TPSA)",
      "Daina & Zoete, ChemMedChem 2016, 11, 1117 (BOILED-Egg)",
      "Lipinski et al. 1997; Ghose et al. 1999; Veber et al. 2002; Egan et al. 2000; Muegge et al. 2001; Teague et al. 1999",
      "Martin, J. Med. Chem. 2005, 48, 3164 (Abbott bioavailability score)",
      "Potts & Guy, Pharm. Res. 1992, 9, 663 (log Kp)",
      "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (SwissADME rules, radar)",
      "Martins et al., J. Chem. Inf. Model. 2012, 52, 1686 (BBBP)",
      "AstraZeneca, ChEMBL CHEMBL3301361 (Lipophilicity logD7.4)",
      "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: scaffold split, published BBBP ROC-AUC and Lipophilicity RMSE)",
      "Bemis & Murcko, J. Med. Chem. 1996, 39, 2887 (scaffolds)",
      "le Cessie & van Houwelingen, Appl. Stat. 1992, 41, 191 (L2 logistic regression)",
      "Saunders, Gammerman & Vovk, ICML 1998 (kernel ridge); Ralaivola et al., Neural Networks 2005, 18, 1093 (Tanimoto kernel)",
    ],
    data: [
      "qed-bickerton-2012.json",
      "bbbp.csv",
      "lipo.csv",
      "scaffold-splits.json",
      "bbbp-model.json",
      "lipo-logd-model.json",
      ...ADMET_TDC.flatMap((d) => [d.file, tdcModelFileName(d.key)]),
      TDC_DOMAIN_FILE,
    ],
    validation:
      "QED within 1e-6 of native rdkit.Chem.QED on 4,989/4,989 NCI first_5K molecules; every rule verdict, " +
      "BOILED-Egg call and Abbott score equal to an independent native-RDKit script using the same limits on NCI " +
      "first_5K, and the BOILED-Egg regions (native CalcTPSA(includeSandP=True)) on 2,000/2,000 ChEMBL compounds " +
      `of the Lipophilicity set; BOILED-Egg brain access vs BBBP labels: accuracy ${BBBP_VALIDATION.accuracy}, MCC ${BBBP_VALIDATION.mcc} ` +
      `on ${BBBP_VALIDATION.scored} compounds. On MoleculeNet's scaffold split (native RDKit Murcko scaffolds, ` +
      `regenerated by a test): BBB model test ROC-AUC ${bbb.test_roc_auc}, accuracy ${bbb.test_accuracy}, MCC ` +
      `${bbb.test_mcc} vs BOILED-Egg on the same ${bbb.test_rows} rows accuracy ${bbb.boiled_egg_same_rows.accuracy}, ` +
      `MCC ${bbb.boiled_egg_same_rows.mcc} and the constant predictor (the training majority, ${bbb.constant_same_rows.majority}) ` +
      `accuracy ${bbb.constant_same_rows.accuracy.toFixed(3)}, MCC 0, ROC-AUC 0.5 (MoleculeNet's published scaffold-split ROC-AUC: kernel SVM ` +
      `${MOLECULENET_BBBP.kernelsvm_test_roc_auc}, graph convolution ${MOLECULENET_BBBP.graphconv_test_roc_auc}); ` +
      `logD7.4 model test RMSE ${logd.test_rmse} (r² ${logd.test_r2}) vs the constant predictor (the training ` +
      `mean, ${logd.training_mean_same_rows.training_mean.toFixed(2)}) ${logd.training_mean_same_rows.rmse.toFixed(3)} and WLOGP read as log D ` +
      `${logd.wlogp_as_logd_same_rows.rmse} on the same ${logd.test_rows} rows (MoleculeNet, random split: graph ` +
      `convolution ${MOLECULENET_LIPO.graphconv_test_rmse}). ` +
      `TDC models on a seeded balanced scaffold split (70/10/20, TDC's method): ${tdcFigures()}. ` +
      "Tests: admet/*.test.ts recompute every figure from the checked-in data and weights.",
    limits:
      "WLOGP stands in for XLOGP3/MLOGP/CLOGP wherever the original rule or SwissADME used them. Two TPSAs: " +
      "BOILED-Egg reads tpsa_sp, Ertl's TPSA with polar S and P (RDKit's includeSandP), as Daina & Zoete " +
      "fitted the egg; Veber, Egan, the Abbott score and the radar read tpsa, N and O only (RDKit's default), " +
      `as those rules were published; on ${EGG_TPSA_SP_SHIFT.compounds} ChEMBL compounds the S and P terms move ` +
      `${eggMoved()} to another egg region (${eggMoves()}). ` +
      "Egan is applied as the limits of its " +
      "99% ellipse, a box (WLOGP ≤ 5.88, TPSA ≤ 131.6): the ellipse's centre and axes (Egan, Merz & Baldwin 2000) " +
      "are not in any source available offline, and the egg replaces the box only once they are checked in with " +
      "the paper's own worked values to test against; the radar's INSOLU axis uses the " +
      "solubility_assessment model, not SwissADME's ESOL. CYP calls are cyp_assessment's; P-gp, Caco-2 and half-life " +
      "are the TDC models above (their files are 90% of TDC's where marked in data/PROVENANCE.md); " +
      `${ADMET_AI_SPLIT}. ` +
      "BBBP's scaffold test rows are half penetrant against 82% in train, so every BBB figure there is low; the " +
      `BBB model's descriptors were added after its bits-only first version was scored on test (${bbb.history}). ` +
      "log D is AstraZeneca's shake-flask assay on ChEMBL compounds; MoleculeNet's published Lipophilicity figures " +
      "are on a random split, easier than ours. Domain (issue 24 item 1): every model here gives no value as a " +
      "finding for a compound outside the organic classes or outside its own similarity domain (in_domain false, " +
      "status out_of_domain; the estimate kept under raw_out_of_domain or raw_out_of_domain_value, for audit only); " +
      `limits from each model's own training compounds: ${similarityLimitsText([
        ["logd74", logdModel().file.domain],
      ])}; the TDC models' floors (${DOMAIN_FLOOR_RULE}; data/tdc-domain-floors.json): ` +
      `${ADMET_TDC.map((d) => tdcDomainText(d.key)).join("; ")}. The radar's INSOLU axis is empty where the solubility model is out of its domain.`,
  };
  return methodCard;
}

function eggMoves(): string {
  return Object.entries(EGG_TPSA_SP_SHIFT.moved)
    .map(([move, n]) => `${n} ${move}`)
    .join(", ");
}

function eggMoved(): number {
  return Object.values(EGG_TPSA_SP_SHIFT.moved).reduce((a: number, b: number) => a + b, 0);
}

const EMPTY = {
  qed: null,
  wlogp: null,
  tpsa: null,
  tpsa_sp: null,
  mw: null,
  hbd: null,
  hba: null,
  rotatable_bonds: null,
  fsp3: null,
  heavy_atoms: null,
  boiled_egg: null,
  rules: null,
  bioavailability_score: null,
  log_kp_cm_s: null,
  radar: null,
  logd74: null,
  in_domain: null,
  raw_out_of_domain: null,
} as const;

/** ADMET physicochemistry, rules and BOILED-Egg of each parsed compound's parent. */
export const admetPredictions = defineModule<AdmetFinding, AdmetAssessment, AdmetSummary>({
  id: ID,
  version: "1.0.0",
  description:
    "QED, BOILED-Egg, six drug-likeness rule sets, Abbott score, log Kp and radar (SwissADME-style)",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  notAssessed: (base) => ({
    ...base,
    ...EMPTY,
    ...Object.fromEntries(reportedTdc().map((d) => [d.key, null])),
  }),
  assess: assessAdmet,
  // Outside the organic classes there is no QED, BOILED-Egg or rules: counted as not assessed.
  isAssessed: (finding) => finding.qed !== null && finding.boiled_egg !== null && finding.rules !== null,
  createRun() {
    let gi = 0;
    let bbb = 0;
    let vetoed = 0;
    let qedSum = 0;
    let outOfDomain = 0;
    const passes: Record<string, number> = {};
    return {
      merge({ finding, qed }) {
        const { boiled_egg: egg, rules } = finding;
        if (finding.in_domain === false) outOfDomain++;
        if (qed === null || egg === null || rules === null) return finding;
        qedSum += qed;
        if (egg.gi_absorption === "high") gi++;
        if (egg.bbb_permeant) bbb++;
        if (egg.veto !== null) vetoed++;
        for (const [name, verdict] of Object.entries(rules))
          if (verdict.pass) passes[name] = (passes[name] ?? 0) + 1;
        return finding;
      },
      finish(counts): AdmetSummary {
        return {
          ...counts,
          out_of_compound_class: outOfDomain,
          gi_absorption_high: gi,
          boiled_egg_vetoed: vetoed,
          bbb_permeant: bbb,
          rule_passes: passes,
          mean_qed: counts.assessed === 0 ? null : round(qedSum / counts.assessed, 3),
          bbbp_validation: BBBP_VALIDATION,
          bbb_model_validation: bbbModelValidation(),
          logd74_validation: logdValidation(),
          tdc_models: Object.fromEntries(ADMET_TDC.map((d) => [d.key, tdcValidation(d)])),
          method: method(),
        };
      },
    };
  },
});

/**
 * The INSOLU axis: the adopted solubility model's log S (as solubility_assessment's `log_s`), none
 * out of its domain (issue 24 item 1).
 */
function adoptedLogS(prediction: ReturnType<typeof predictCompoundSolubility>): number | null {
  return prediction.in_domain ? prediction.value : null;
}

/** log D7.4 as a finding: the value in the model's domain; outside it none, the estimate kept for audit. */
function logd74Of(logd: ReturnType<typeof compoundLogd>): NonNullable<AdmetFinding["logd74"]> {
  const common = {
    nearest_tanimoto: round(logd.nearest_tanimoto, 3),
    domain_rule: logd.domain_rule,
    model: LOGD_MODEL as typeof LOGD_MODEL,
  };
  if (logd.in_domain) return { value: round(logd.value, 2), in_domain: true, ...common };
  return {
    value: null,
    in_domain: false,
    status: "out_of_domain",
    domain_reason:
      similarityDomainReason(logd.nearest_tanimoto, logdModel().file.domain, true) ?? "out_of_domain",
    raw_out_of_domain_value: round(logd.value, 2),
    ...common,
  };
}

/** One compound's finding plus the unrounded QED the summary's mean is taken over. */
export interface AdmetAssessment {
  readonly finding: AdmetFinding;
  readonly qed: number | null;
}

/** The per-compound part (no run state), for a worker thread. */
function assessAdmet(compound: ParsedCompound): AdmetAssessment {
  const base = findingBase(ID, compound);
  const { d, qed, anionic, logS } = withParentMol(compound, (mol, rdkit) => ({
    d: admetDescriptors(rdkit, mol),
    qed: computeQed(qedProperties(rdkit, mol)),
    anionic: isAnionic(rdkit, mol),
    logS: adoptedLogS(predictCompoundSolubility(compound)),
  }));
  const pk = tdcPk(compound);
  const egg = boiledEggVerdict(
    d.tpsa_sp,
    d.wlogp,
    compound.chem.permanent_charge,
    eggPgpLayer(pk.pgp as Gated<TdcClassification> | undefined),
  );
  const logd = logdModel().file.adopted ? compoundLogd(compound, () => logdDescriptorRow(d, anionic)) : null;
  const rules = evaluateDrugLikeness(d);
  const finding: AdmetFinding = {
    ...base,
    status: "assessed",
    reason: null,
    qed: round(qed, 3),
    wlogp: round(d.wlogp, 3),
    tpsa: round(d.tpsa, 2),
    tpsa_sp: round(d.tpsa_sp, 2),
    mw: round(d.mw, 3),
    hbd: d.hbd,
    hba: d.hba,
    rotatable_bonds: d.rotatable_bonds,
    fsp3: round(d.fsp3, 3),
    heavy_atoms: d.heavy_atoms,
    boiled_egg: egg,
    rules,
    bioavailability_score: abbottScore(anionic, d.tpsa, rules.lipinski.pass),
    log_kp_cm_s: round(logKpCmPerS(d.wlogp, d.mw), 2),
    radar: bioavailabilityRadar({
      lipo: round(d.wlogp, 3),
      size: round(d.mw, 3),
      polar: round(d.tpsa, 2),
      insolu: logS === null ? null : round(logS, 3),
      insatu: round(d.fsp3, 3),
      flex: d.rotatable_bonds,
    }),
    logd74: logd === null ? null : logd74Of(logd),
    in_domain: true,
    raw_out_of_domain: null,
    ...pk,
  };
  const outOfClass = classDomainReason(compound);
  if (outOfClass === null) return { finding, qed };
  const { qed: rawQed, boiled_egg, bioavailability_score, log_kp_cm_s, radar, logd74 } = finding;
  return {
    finding: {
      ...finding,
      reason: outOfClass,
      qed: null,
      boiled_egg: null,
      bioavailability_score: null,
      log_kp_cm_s: null,
      radar: null,
      logd74: null,
      in_domain: false,
      raw_out_of_domain: { qed: rawQed, boiled_egg, bioavailability_score, log_kp_cm_s, radar, logd74 },
    },
    qed: null,
  };
}
