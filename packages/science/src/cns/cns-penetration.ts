import { admetDescriptors } from "../admet/admet-descriptors.ts";
import { logdDescriptorRow } from "../admet/admet-model-features.ts";
import { BBB_CITATIONS, type BbbCall, bbbModel, predictBbb } from "../admet/bbb-model.ts";
import { isAnionic } from "../admet/bioavailability-score.ts";
import { boiledEgg } from "../admet/boiled-egg.ts";
import { compoundLogd } from "../admet/compound-logd.ts";
import { logdModel } from "../admet/logd-model.ts";
import { classifyCompound, type Gated, tdcInputs } from "../admet/tdc-compound.ts";
import type { TdcClassification } from "../admet/tdc-model.ts";
import { tdcModel } from "../admet/tdc-model.ts";
import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import {
  type OutOfDomain,
  similarityDomainReason,
  similarityDomainRule,
} from "../fingerprint/similarity-domain.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { CNS_MPO_THRESHOLD, type CnsMpo, cnsMpo } from "./cns-mpo.ts";
import { CNS_MPO_VALIDATION } from "./cns-mpo-validation.ts";

const ID = "cns_penetration";

/** Why the sixth MPO component is absent: said in every finding and the card. */
export const PKA_NOT_COMPUTED =
  "not computed: the pKa of the most basic centre needs a pKa predictor, and this build has none it can cite " +
  "and validate (Wager et al. used a calculated pKa); the MPO is reported over the other five with its range";

export interface CnsPenetrationFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Wager's CNS MPO over the components computable here (pKa is not: see its term's reason). */
  readonly cns_mpo: CnsMpo | null;
  /**
   * The package's BBBP-trained model (admet_predictions' card), or its out-of-domain record; null with
   * `bbb_model_reason` while the model is not adopted (it must beat BOILED-Egg's MCC on held-out rows).
   */
  readonly bbb_model: BbbCall | OutOfDomain<BbbCall> | null;
  readonly bbb_model_reason: string | null;
  /** BOILED-Egg's yolk (brain access by passive permeation), the rule beside the model. */
  readonly boiled_egg_bbb: boolean | null;
  /** The TDC P-gp inhibition model when adopted (null with `pgp_reason` when not). */
  readonly pgp: Gated<TdcClassification> | null;
  readonly pgp_reason: string | null;
}

export interface CnsPenetrationSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  /** Compounds whose six-component MPO is ≥ 4 whatever the missing components are. */
  readonly mpo_meets_threshold: number;
  /** … is < 4 whatever they are. */
  readonly mpo_below_threshold: number;
  /** … depends on the missing components (pKa). */
  readonly mpo_undetermined: number;
  /** BOILED-Egg yolk calls (the adopted BBB call). */
  readonly boiled_egg_bbb_permeant: number;
  readonly validation: typeof CNS_MPO_VALIDATION;
  readonly method: MethodCard;
}

const method = (): MethodCard => ({
  what:
    "Brain-penetration evidence of each parsed compound's parent, in one place. (1) Wager's CNS MPO: six " +
    "piecewise-linear desirabilities summed to [0, 6], desirable ≥ 4 — ClogP (here Wildman–Crippen logP, " +
    "Wager used BioByte ClogP), ClogD (here the package's log D7.4 model, in its domain only; Wager used a " +
    "calculated log D), MW, TPSA (N, O), HBD and the pKa of the most basic centre. The pKa is not computed " +
    "(no pKa predictor this build can cite and validate), so the score is reported over the components there " +
    "are, with the range the six-component score lies in (each missing component adds 0 to 1) and " +
    `meets_threshold true or false only when that whole range is on one side of ${CNS_MPO_THRESHOLD}, else null. ` +
    "(2) BOILED-Egg's yolk (brain access by passive permeation), and the package's BBB model (L2 logistic " +
    "regression on Morgan bits and descriptors, trained on BBBP) with its similarity domain when adopted (while " +
    "it does not beat BOILED-Egg on held-out rows, bbb_model is null and says so). (3) The TDC P-gp inhibition model, when adopted. " +
    "The target product profile oral_cns makes this module required (the plan says so).",
  citations: [
    "Wager, Hou, Verhoest & Villalobos, ACS Chem. Neurosci. 2010, 1, 435 (CNS MPO)",
    "Wildman & Crippen, J. Chem. Inf. Comput. Sci. 1999, 39, 868 (logP)",
    "Ertl, Rohde & Selzer, J. Med. Chem. 2000, 43, 3714 (TPSA)",
    ...BBB_CITATIONS,
    "Broccatelli et al., J. Med. Chem. 2011, 54, 1740 (P-gp inhibition data, via TDC)",
  ],
  data: ["bbbp.csv", "bbbp-model.json", "lipo-logd-model.json", "tdc-pgp-model.json"],
  validation:
    `The five-component MPO (pKa absent) against the BBBP labels (Martins et al. 2012; ${CNS_MPO_VALIDATION.rows} ` +
    `compounds of the BBB model's held-out test rows): ROC-AUC ${CNS_MPO_VALIDATION.mpo5_roc_auc} beside the BBB ` +
    `model's ${CNS_MPO_VALIDATION.bbb_model_roc_auc} and the constant predictor's 0.5 on the same rows ` +
    "(docs/science.md, regenerated by cns/cns-mpo-validation.test.ts). The desirability breakpoints equal " +
    "Wager et al.'s Figure 2 (cns-mpo.test.ts).",
  limits:
    "The MPO was derived from marketed CNS drugs and Pfizer candidates; it ranks, it does not predict brain " +
    "exposure. Without pKa a compound is never called desirable or not when the sixth term would decide it " +
    `(meets_threshold null). ClogP and ClogD here are not Wager's programs. The BBB model's domain is Tanimoto ≥ ` +
    `${bbbModel().file.domain.min_tanimoto} to its training compounds; outside it (or outside the organic classes) ` +
    "the call is kept for audit only. P-gp inhibition is not P-gp efflux (substrate) liability; no substrate " +
    "model is shipped.",
});

const EMPTY = {
  cns_mpo: null,
  bbb_model: null,
  bbb_model_reason: null,
  boiled_egg_bbb: null,
  pgp: null,
  pgp_reason: null,
} as const;

function assessCns(compound: ParsedCompound): CnsPenetrationFinding {
  const base = findingBase(ID, compound);
  const outOfClass = classDomainReason(compound);
  if (outOfClass !== null) return { ...base, status: "not_assessed", reason: outOfClass, ...EMPTY };
  const { d, anionic } = withParentMol(compound, (mol, rdkit) => ({
    d: admetDescriptors(rdkit, mol),
    anionic: isAnionic(rdkit, mol),
  }));
  const row = logdDescriptorRow(d, anionic);
  const logd = logdModel().file.adopted ? compoundLogd(compound, () => row) : null;
  const clogd =
    logd === null
      ? { value: null, reason: "not computed: the log D7.4 model is not adopted" }
      : logd.in_domain
        ? { value: logd.value }
        : {
            value: null,
            reason: `log D7.4 model ${similarityDomainReason(logd.nearest_tanimoto, logdModel().file.domain, true)}`,
          };
  const mpo = cnsMpo({
    clogp: { value: d.wlogp },
    clogd,
    mw: { value: d.mw },
    tpsa: { value: d.tpsa },
    hbd: { value: d.hbd },
    pka: { value: null, reason: PKA_NOT_COMPUTED },
  });
  const bbb = bbbModel().file.adopted ? bbbOf(predictBbb(compoundOnBits(compound), row)) : null;
  const pgpAdopted = tdcModel("pgp").file.adopted;
  return {
    ...base,
    status: "assessed",
    reason: null,
    cns_mpo: mpo,
    bbb_model: bbb,
    bbb_model_reason: bbb === null ? BBB_NOT_ADOPTED() : null,
    boiled_egg_bbb: boiledEgg(d.tpsa_sp, d.wlogp).bbb_permeant,
    pgp: pgpAdopted ? classifyCompound("pgp", compound, tdcInputs(compound)) : null,
    pgp_reason: pgpAdopted
      ? null
      : "the TDC P-gp model is not adopted (its test figures did not pass the rule)",
  };
}

/** Why the BBB model gives no call: it did not beat the rule it is scored beside. */
const BBB_NOT_ADOPTED = () => {
  const { file } = bbbModel();
  return (
    `the BBB model is not adopted: held-out MCC ${file.test.mcc} does not beat BOILED-Egg's ${file.boiled_egg_test.mcc} ` +
    "on the same rows; boiled_egg_bbb is the call"
  );
};

function bbbOf(call: BbbCall): BbbCall | OutOfDomain<BbbCall> {
  const domain = bbbModel().file.domain;
  return call.in_domain
    ? call
    : {
        status: "out_of_domain",
        in_domain: false,
        domain_rule: similarityDomainRule(domain),
        domain_reason: similarityDomainReason(call.nearest_tanimoto, domain, true) ?? "out_of_domain",
        raw_out_of_domain: call,
      };
}

/** `cns_penetration` (issue 40 item 4): CNS MPO, the BBB model and P-gp inhibition, each with its domain. */
export const cnsPenetration = defineModule<
  CnsPenetrationFinding,
  CnsPenetrationFinding,
  CnsPenetrationSummary
>({
  id: ID,
  version: "1.0.0",
  description: "CNS MPO (Wager 2010, five of six components: no pKa), the BBB model and P-gp inhibition",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  notAssessed: (base) => ({ ...base, ...EMPTY }),
  assess: assessCns,
  createRun() {
    const counts = { meets: 0, below: 0, undetermined: 0, penetrant: 0 };
    return {
      merge(finding) {
        const mpo = finding.cns_mpo;
        if (mpo !== null) {
          if (mpo.meets_threshold === true) counts.meets++;
          else if (mpo.meets_threshold === false) counts.below++;
          else counts.undetermined++;
        }
        if (finding.boiled_egg_bbb === true) counts.penetrant++;
        return finding;
      },
      finish(done): CnsPenetrationSummary {
        return {
          ...done,
          mpo_meets_threshold: counts.meets,
          mpo_below_threshold: counts.below,
          mpo_undetermined: counts.undetermined,
          boiled_egg_bbb_permeant: counts.penetrant,
          validation: CNS_MPO_VALIDATION,
          method: method(),
        };
      },
    };
  },
});
