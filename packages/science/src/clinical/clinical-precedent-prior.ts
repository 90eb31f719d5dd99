import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { predictLogistic } from "../fingerprint/logistic-regression.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { maxTanimoto, nearestNeighbours } from "../fingerprint/reference-set.ts";
import { similarityDomainReason, similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { round } from "../numeric/round.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { clinToxModel } from "./clintox-model.ts";

export interface ApprovedNeighbour {
  /** 1-based data row of ClinTox (`data/clintox.csv`); ClinTox gives SMILES, no names. */
  readonly clintox_row: number;
  readonly smiles: string;
  /** Tanimoto on Morgan radius-2, 2,048-bit fingerprints of the parents. */
  readonly tanimoto: number;
}

export interface ClinicalPrecedentFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** The three most similar FDA-approved drugs of ClinTox, most similar first. */
  readonly nearest_approved_drugs: readonly ApprovedNeighbour[] | null;
  readonly max_tanimoto_approved: number | null;
  /** Model probability of failing clinical trials for toxicity (ClinTox CT_TOX), not a measurement. */
  readonly ct_tox_probability: number | null;
  readonly ct_tox_model: typeof CT_TOX_MODEL | null;
  /** Highest Tanimoto to the rows the CT_TOX model was fitted on. */
  readonly ct_tox_max_tanimoto: number | null;
  /** At least the domain limit (summary) similar to a training row, and inside the organic classes. */
  readonly ct_tox_in_domain: boolean | null;
  /** The rule that decided ct_tox_in_domain (issue 24 item 1); null when not assessed. */
  readonly ct_tox_domain_rule: string | null;
  /**
   * Out of the domain only: the probability the model gave, kept for audit, not a finding
   * (`ct_tox_probability` is then null); null otherwise.
   */
  readonly ct_tox_raw_out_of_domain: number | null;
}

export interface ClinicalPrecedentSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly ct_tox_out_of_domain: number;
  readonly approved_reference_drugs: number;
  readonly validation: {
    readonly split: string;
    readonly seed: number;
    readonly ct_tox_test_roc_auc: number;
    readonly ct_tox_valid_roc_auc: number;
    /** Pooled out-of-fold ROC-AUC over 10 seeded folds of all 1,478 compounds (all 112 failures scored). */
    readonly ct_tox_cv_roc_auc: number;
    readonly test_rows: number;
    readonly test_positives: number;
    /** MoleculeNet's graph convolution on ClinTox, random split, test ROC-AUC (mean of its 2 tasks). */
    readonly moleculenet_graphconv_test_roc_auc: number;
    readonly domain_min_tanimoto: number;
  };
  readonly method: MethodCard;
}

const ID = "clinical_precedent_prior";
export const CT_TOX_MODEL = "clintox_ct_tox_logreg_morgan2";
/** Wu et al., Chem. Sci. 2018, 9, 513: graph convolution, ClinTox, random split, test ROC-AUC 0.807 ± 0.047. */
export const MOLECULENET_CLINTOX_GRAPHCONV = 0.807;

function method(): MethodCard {
  const { file, approved } = clinToxModel();
  const task = file.tasks[0];
  return {
    what:
      "Clinical precedent of the parent: the three FDA-approved drugs of ClinTox most similar to it (Tanimoto " +
      `on Morgan radius-2, 2,048-bit fingerprints; ${approved.length} approved reference drugs, given by SMILES ` +
      "and ClinTox row as the data set has no names), and a logistic regression on the same fingerprints giving " +
      "the probability that a compound like it failed clinical trials for toxicity (ClinTox CT_TOX), with its " +
      "applicability domain (nearest training compound).",
    citations: [
      "Gayvert, Madhukar & Elemento, Cell Chem. Biol. 2016, 23, 1294 (ClinTox: FDA approvals from SWEETLEAD, trial failures for toxicity from ClinicalTrials.gov AACT)",
      "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: the ClinTox distribution, its random split and published test ROC-AUC)",
      "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
      "le Cessie & van Houwelingen, Appl. Stat. 1992, 41, 191 (L2-penalised logistic regression)",
      "Sheridan et al., J. Chem. Inf. Comput. Sci. 2004, 44, 1912 (similarity to the training set as applicability domain)",
    ],
    data: ["clintox.csv", "clintox-fingerprint-model.json"],
    validation:
      `CT_TOX held-out ROC-AUC ${task?.test_roc_auc.toFixed(3)} on ${task?.n_test} test compounds ` +
      `(${task?.test_positives} positives) of a random 80/10/10 split (seed ${file.seed}; MoleculeNet's split ` +
      `kind and ratios for ClinTox), beside MoleculeNet's graph convolution ${MOLECULENET_CLINTOX_GRAPHCONV} ` +
      `(random split, mean of its two ClinTox tasks); 10-fold cross-validated ROC-AUC over all compounds ` +
      `${task?.cv_roc_auc?.toFixed(3)} (every one of the 112 failures scored once). ` +
      "Nearest-neighbour similarities equal native RDKit's " +
      "BulkTanimotoSimilarity on Morgan bit vectors for fixture molecules " +
      "(test: clinical/clinical-precedent-prior.validation.test.ts); both ROC-AUCs are recomputed from the checked-in data.",
    limits:
      "ClinTox is 1,478 compounds, 112 trial failures for toxicity: the test set holds 10 of them, so its " +
      "ROC-AUC is uncertain by ±0.05 or more (the cross-validated figure is the steadier one). CT_TOX is a property of the drugs in ClinTox, not of a mechanism; " +
      `Domain (issue 24 item 1): ${similarityDomainRule(file.domain)}, and inside the organic classes; out of it ` +
      "ct_tox_in_domain is false, ct_tox_probability null and the model's number is kept under " +
      "ct_tox_raw_out_of_domain, for audit only. A high similarity to an approved drug is " +
      "precedent, not evidence that this compound is safe. Approved drugs are named only by SMILES.",
  };
}

/** Nearest approved drugs and the CT_TOX probability of each parsed compound's parent. */
export const clinicalPrecedentPrior = defineModule<
  ClinicalPrecedentFinding,
  ClinicalPrecedentFinding,
  ClinicalPrecedentSummary
>({
  id: ID,
  version: "1.0.0",
  description:
    "Nearest FDA-approved drugs (ClinTox, Morgan Tanimoto) and a CT_TOX fingerprint model with domain",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "clinical_precedent",
  notAssessed: (base) => ({
    ...base,
    nearest_approved_drugs: null,
    max_tanimoto_approved: null,
    ct_tox_probability: null,
    ct_tox_model: null,
    ct_tox_max_tanimoto: null,
    ct_tox_in_domain: null,
    ct_tox_domain_rule: null,
    ct_tox_raw_out_of_domain: null,
  }),
  assess: assessClinicalPrecedent,
  createRun() {
    let outOfDomain = 0;
    return {
      merge(finding) {
        if (finding.ct_tox_in_domain === false) outOfDomain++;
        return finding;
      },
      finish(counts): ClinicalPrecedentSummary {
        const { file, approved } = clinToxModel();
        const task = file.tasks[0];
        return {
          ...counts,
          ct_tox_out_of_domain: outOfDomain,
          approved_reference_drugs: approved.length,
          validation: {
            split: `random 80/10/10 (${file.split.note})`,
            seed: file.seed,
            ct_tox_test_roc_auc: task?.test_roc_auc ?? Number.NaN,
            ct_tox_valid_roc_auc: task?.valid_roc_auc ?? Number.NaN,
            ct_tox_cv_roc_auc: task?.cv_roc_auc ?? Number.NaN,
            test_rows: task?.n_test ?? 0,
            test_positives: task?.test_positives ?? 0,
            moleculenet_graphconv_test_roc_auc: MOLECULENET_CLINTOX_GRAPHCONV,
            domain_min_tanimoto: file.domain.min_tanimoto,
          },
          method: method(),
        };
      },
    };
  },
});

/** The per-compound part (no run state), for a worker thread (analysis-module.ts). */
function assessClinicalPrecedent(compound: ParsedCompound): ClinicalPrecedentFinding {
  const { file, training, approved, approvedSet } = clinToxModel();
  const onBits = compoundOnBits(compound);
  const fp = packBits(onBits);
  const nearest = nearestNeighbours(fp, approvedSet, 3).map((n) => {
    const drug = approved[n.index];
    return {
      clintox_row: drug?.clintox_row ?? 0,
      smiles: drug?.smiles ?? "",
      tanimoto: round(n.tanimoto, 3),
    };
  });
  const similarity = maxTanimoto(fp, training);
  // Outside the organic classes ClinTox (organic drugs and trial candidates) says nothing (issue 24
  // item 2); outside its similarity domain neither (item 1): the probability is kept for audit only.
  const outOfClass = classDomainReason(compound);
  const reason =
    outOfClass ?? similarityDomainReason(similarity, file.domain, similarity < file.domain.min_tanimoto);
  const probability = round(predictLogistic(file.tasks[0] ?? { bias: 0, weights: [] }, onBits), 3);
  return {
    ...findingBase(ID, compound),
    status: "assessed",
    reason,
    nearest_approved_drugs: nearest,
    max_tanimoto_approved: nearest[0]?.tanimoto ?? 0,
    ct_tox_probability: reason === null ? probability : null,
    ct_tox_model: CT_TOX_MODEL,
    ct_tox_max_tanimoto: round(similarity, 3),
    ct_tox_in_domain: reason === null,
    ct_tox_domain_rule: outOfClass === null ? similarityDomainRule(file.domain) : CLASS_DOMAIN_RULE,
    ct_tox_raw_out_of_domain: reason === null ? null : probability,
  };
}
