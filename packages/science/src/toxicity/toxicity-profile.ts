import { DOMAIN_FLOOR_RULE } from "../admet/domain-floor.ts";
import { matchedQedAlerts } from "../admet/qed.ts";
import { reportedPerCompound, reportingDecision, SKILL_MARGIN_RULE } from "../admet/skill-margin.ts";
import { classifyCompound, type Gated, tdcInputs } from "../admet/tdc-compound.ts";
import { ADMET_AI_SPLIT, SAFETY_AND_PK_DATASETS } from "../admet/tdc-datasets.ts";
import { TDC_DOMAIN_FILE, tdcDomainText } from "../admet/tdc-domain-file.ts";
import { correctionsOf, LABEL_CORRECTIONS_FILE, labelCorrections } from "../admet/tdc-label-corrections.ts";
import {
  type TdcClassification,
  tdcDataset,
  tdcModel,
  tdcModelFileName,
  tdcValidation,
} from "../admet/tdc-model.ts";
import type { ClassifierFigures as TdcClassificationFigures } from "../admet/tdc-model-file.ts";
import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { similarityDomainReason, similarityLimitsText } from "../fingerprint/similarity-domain.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { BRENK_CITATION } from "./brenk-catalog.ts";
import { brenkKey, findStructuralAlerts, type StructuralAlerts } from "./structural-alerts.ts";
import {
  predictTox21,
  TOX21_CITATIONS,
  type Tox21Prediction,
  tox21Model,
  tox21Validation,
} from "./tox21-model.ts";

export interface ToxicityProfileFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly pains: StructuralAlerts["pains"] | null;
  /** Brenk alert names matched (Brenk et al. 2008, RDKit's FilterCatalog BRENK set). */
  readonly brenk: StructuralAlerts["brenk"] | null;
  readonly nibr: StructuralAlerts["nibr"] | null;
  readonly alert_atoms: StructuralAlerts["alert_atoms"] | null;
  /** SMARTS of QED's unwanted-group alerts present (Bickerton 2012, the 116 of RDKit's QED). */
  readonly qed_alerts: readonly string[] | null;
  /** Tox21 assay probabilities from a fingerprint model (a prediction, unlike the alerts; see the summary). */
  readonly tox21_fingerprint_model: Tox21Prediction | null;
  /**
   * TDC-trained classifiers (issue 26 item 4), each present only when its model was adopted (it beat
   * the constant predictor on its scaffold test split) and clears the skill margin (skill-margin.ts,
   * issue 36 item 6; see the summary's `tdc_models`): hERG blockade,
   * Ames mutagenicity, drug-induced liver injury. Null for a compound not assessed.
   */
  readonly herg?: Gated<TdcClassification> | null;
  readonly ames?: Gated<TdcClassification> | null;
  readonly dili?: Gated<TdcClassification> | null;
}

/** The TDC safety endpoints this module reports (their models' files say whether each is adopted). */
export const TOXICITY_TDC_KEYS = ["herg", "ames", "dili"] as const;
const TOXICITY_TDC = SAFETY_AND_PK_DATASETS.filter((d) => d.destination === "toxicity_profile");
const reportedKeys = () => TOXICITY_TDC_KEYS.filter((key) => reportedPerCompound(tdcModel(key).file));

export interface ToxicityProfileSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly with_pains: number;
  readonly with_nibr_exclude: number;
  readonly with_nibr_covalent: number;
  readonly with_brenk: number;
  /** Alert name (Brenk ones as `brenk:<name>`) → number of compounds carrying it, most frequent first. */
  readonly alert_counts: Readonly<Record<string, number>>;
  /** The Tox21 model's held-out ROC-AUC per assay beside MoleculeNet's published figure. */
  readonly tox21_fingerprint_model: ReturnType<typeof tox21Validation>;
  /** hERG, Ames and DILI models: held-out figures beside ADMET-AI's, and whether each is adopted. */
  readonly tdc_models: Readonly<Record<string, ReturnType<typeof tdcValidation>>>;
  readonly method: MethodCard;
}

const ID = "toxicity_profile";

const METHOD: MethodCard = {
  what:
    "Structural alerts on the parent, reported as alerts and never as a toxicity prediction: the 480 PAINS " +
    "patterns (families A/B/C) for assay interference, and the 444 NIBR hit-triage filters with their " +
    "severity (EXCLUDE, FLAG, ANNOTATION) and covalent flag, the 105 Brenk alerts (unwanted groups for " +
    "screening libraries: reactive, toxic or unfavourable-pharmacokinetics motifs), and QED's 116 " +
    "unwanted-group alerts. Atom indices of each PAINS, NIBR and Brenk alert are given for highlighted " +
    "depictions. Separately, under its own key " +
    "(tox21_fingerprint_model), a prediction: per-assay probabilities of the 12 Tox21 assays from a Morgan " +
    "fingerprint logistic regression, with its applicability domain (the policy's gcn_toxicity is a separate " +
    "module, a graph network; its card says per assay which of the two a report uses).",
  citations: [
    "Baell & Holloway, J. Med. Chem. 2010, 53, 2719 (PAINS)",
    "Saubern, Guha & Baell, Mol. Inf. 2011, 30, 847 (PAINS as SMARTS)",
    "Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425 (NIBR filters)",
    BRENK_CITATION,
    "Bickerton et al., Nat. Chem. 2012, 4, 90 (QED's unwanted-group alerts)",
    ...TOX21_CITATIONS,
  ],
  data: [
    "wehi-pains.csv",
    "nibr-substructure-filters.csv",
    "brenk-alerts.csv",
    "qed-bickerton-2012.json",
    "tox21.csv",
    "tox21-fingerprint-model.json",
  ],
  validation:
    "Per-molecule hit sets against native RDKit 2022.09 (FilterCatalog PAINS; a FilterCatalog of the NIBR " +
    "SMARTS with MIN_COUNT as the NIBR script builds it) on every 4th NCI first_5K molecule: PAINS identical " +
    "1,247/1,247, NIBR identical 1,244/1,247, Brenk (FilterCatalog BRENK) identical 1,247/1,247 " +
    "and, Brenk alone, on all 4,989 NCI molecules both parse: 4,989/4,989 (test: " +
    "toxicity/structural-alerts.validation.test.ts); the number of QED " +
    "alerts equals native rdkit.Chem.QED's ALERTS on 4,989/4,989 NCI molecules (admet/qed.validation.test.ts). Tox21 " +
    "model: held-out ROC-AUC per assay on a random 80/10/10 split (MoleculeNet's kind) in the summary's " +
    "tox21_fingerprint_model, beside MoleculeNet's graph convolution mean 0.829 (toxicity/tox21-model.validation.test.ts).",
  limits:
    "An alert is a substructure, not a measured liability: PAINS flag frequent hitters in AlphaScreen-type " +
    "assays; any Brenk alert on a Tox21 parent raises the odds of an active call by at most about twofold per " +
    "assay (measured by toxicity/brenk-tox21-odds.validation.test.ts, table in docs/science.md), so no risk number is derived. " +
    "The Brenk SMARTS are RDKit's FilterCatalog BRENK set (regenerated from its compiled queries, see " +
    "data/PROVENANCE.md), not the paper's supplementary table itself. The Tox21 probabilities are model " +
    "estimates for in-vitro " +
    "assay activity, not in-vivo toxicity. Domain (issue 24 item 1): a compound outside the organic classes, or " +
    "whose nearest Tox21 training row is less similar than the training rows' own 5th-percentile leave-one-out " +
    "nearest-neighbour Tanimoto (the model file's limit; `domain_rule` on each output), gets no probability: " +
    "`probabilities` is empty and the numbers stay under raw_out_of_domain_probabilities, for audit only.",
};

let tdcCard: MethodCard | null = null;

/** The hERG label's corrections and the errors kept, as the card states them (issue 36 item 7). */
function hergLabelText(): string {
  const file = tdcDataset("herg").file;
  const fixed = correctionsOf(file)
    .map((c) => `${c.drug_id.toLowerCase()} ${c.from}→${c.to} (${c.evidence}; ${c.source})`)
    .join("; ");
  const kept = labelCorrections()
    .not_corrected.filter((n) => n.file === file)
    .map(
      (n) => `${n.drug_ids.map((id) => id.toLowerCase()).join(", ")} kept as labelled ${n.label}: ${n.why}`,
    )
    .join(" ");
  return `hERG labels corrected: ${fixed}. ${kept}`;
}

/** The card with the TDC safety models' text, built on first use from their files (figures are not restated). */
function toxicityMethod(): MethodCard {
  if (tdcCard !== null) return tdcCard;
  const figures = TOXICITY_TDC.map((d) => {
    const { file } = tdcModel(d.key);
    const t = file.test.model as TdcClassificationFigures;
    const s = file.test.simple as TdcClassificationFigures;
    return (
      `${d.key}: ${reportingDecision(file)}; test AUROC ${t.auroc} (lower 95% bound ` +
      `${file.test.auroc_lower_95}, AUPRC ${t.auprc}, MCC ${t.mcc}, ECE ${t.ece}) on ${file.test.rows} compounds, ` +
      `logistic baseline ${s.auroc}, constant predictor 0.5, ADMET-AI (random split) ${d.admet_ai?.value}`
    );
  });
  tdcCard = {
    what:
      `${METHOD.what} Under the keys herg, ames and dili (each only when its model is adopted and ${SKILL_MARGIN_RULE}, ` +
      "issue 36 item 6): TDC-trained " +
      "classifiers of hERG blockade, Ames mutagenicity and drug-induced liver injury, each with a Platt-calibrated " +
      "probability, a 90% label-conditional conformal set, in_domain with its domain_rule, the model id and the " +
      "training file's sha256. Out of a model's domain (outside the organic classes, or nearest training compound " +
      "below the model's floor, where its scaffold-test AUROC falls, issue 36 item 5) the output is " +
      "status out_of_domain with no probability; the model's output is kept under raw_out_of_domain, for audit only. " +
      `Each output's label says what its positive class is; hERG's: ${tdcDataset("herg").what}. ${hergLabelText()}`,
    citations: [
      ...METHOD.citations,
      ...TOXICITY_TDC.map((d) => `${d.citation} (${d.key}; via TDC, Huang et al. 2021, CC BY 4.0)`),
      ...correctionsOf(tdcDataset("herg").file).map(
        (c) => `${c.source} (hERG label of ${c.drug_id.toLowerCase()})`,
      ),
      "Swanson et al., Bioinformatics 2024, 40, btae416 (ADMET-AI's TDC figures)",
    ],
    data: [
      ...METHOD.data,
      ...TOXICITY_TDC.flatMap((d) => [d.file, tdcModelFileName(d.key)]),
      LABEL_CORRECTIONS_FILE,
      TDC_DOMAIN_FILE,
    ],
    validation:
      `${METHOD.validation} TDC models on a seeded balanced scaffold split (70/10/20, TDC's method; adopted when the ` +
      `test AUROC's lower 95% bound is above 0.5): ${figures.join("; ")} (admet/tdc-models.validation.test.ts).`,
    limits:
      `${METHOD.limits} hERG (${tdcModel("herg").file.curation.compounds} compounds) and DILI ` +
      `(${tdcModel("dili").file.curation.compounds}) are small sets: their test figures carry wide intervals. ` +
      "hERG and Ames files are 90% of TDC's (a tenth held back). " +
      `${ADMET_AI_SPLIT}. ` +
      `Each model's domain limit, from its own training compounds: ${similarityLimitsText([
        ["tox21_fingerprint_model", tox21Model().file.domain],
      ])}; the TDC models' floors (${DOMAIN_FLOOR_RULE}; data/tdc-domain-floors.json): ` +
      `${TOXICITY_TDC.map((d) => tdcDomainText(d.key)).join("; ")}.`,
  };
  return tdcCard;
}

/** PAINS, NIBR and Brenk structural alerts of each parsed compound's parent. */
export const toxicityProfile = defineModule<
  ToxicityProfileFinding,
  ToxicityProfileFinding,
  ToxicityProfileSummary
>({
  id: ID,
  version: "1.0.0",
  description:
    "Structural alerts (PAINS A/B/C, NIBR filters with severities, Brenk) on the parent, reported as alerts; " +
    "and, under its own key, a Tox21 fingerprint model's assay probabilities",
  method: toxicityMethod,
  requiredInputs: ["portfolio"],
  riskChannel: "safety",
  notAssessed: (base) => ({
    ...base,
    pains: null,
    brenk: null,
    nibr: null,
    alert_atoms: null,
    qed_alerts: null,
    tox21_fingerprint_model: null,
    ...Object.fromEntries(reportedKeys().map((key) => [key, null])),
  }),
  assess: assessToxicity,
  isAssessed: ({ pains, nibr, brenk }) => pains !== null && nibr !== null && brenk !== null,
  createRun() {
    let withPains = 0;
    let withExclude = 0;
    let withCovalent = 0;
    let withBrenk = 0;
    const alertCounts = new Map<string, number>();
    return {
      merge(finding) {
        const { pains, nibr, brenk } = finding;
        if (pains === null || nibr === null || brenk === null) return finding;
        if (pains.length > 0) withPains++;
        if (nibr.some((hit) => hit.severity === "EXCLUDE")) withExclude++;
        if (nibr.some((hit) => hit.covalent)) withCovalent++;
        if (brenk.length > 0) withBrenk++;
        for (const name of [...pains, ...nibr.map((hit) => hit.name), ...brenk.map(brenkKey)])
          alertCounts.set(name, (alertCounts.get(name) ?? 0) + 1);
        return finding;
      },
      finish(counts): ToxicityProfileSummary {
        return {
          ...counts,
          with_pains: withPains,
          with_nibr_exclude: withExclude,
          with_nibr_covalent: withCovalent,
          with_brenk: withBrenk,
          alert_counts: Object.fromEntries(
            [...alertCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
          ),
          tox21_fingerprint_model: tox21Validation(),
          tdc_models: Object.fromEntries(TOXICITY_TDC.map((d) => [d.key, tdcValidation(d)])),
          method: toxicityMethod(),
        };
      },
    };
  },
});

/** The per-compound part (no run state), for a worker thread. */
function assessToxicity(compound: ParsedCompound): ToxicityProfileFinding {
  const base = findingBase(ID, compound);
  const { alerts, qedAlerts } = withParentMol(compound, (mol, rdkit) => ({
    alerts: findStructuralAlerts(rdkit, mol),
    qedAlerts: matchedQedAlerts(rdkit, mol),
  }));
  return {
    ...base,
    status: "assessed",
    reason: null,
    ...alerts,
    qed_alerts: qedAlerts,
    tox21_fingerprint_model: gateTox21(compound, predictTox21(compoundOnBits(compound))),
    ...tdcSafety(compound),
  };
}

function tdcSafety(compound: PreparedCompound & { ok: true }): Record<string, Gated<TdcClassification>> {
  const keys = reportedKeys();
  if (keys.length === 0) return {};
  const inputs = tdcInputs(compound);
  return Object.fromEntries(keys.map((key) => [key, classifyCompound(key, compound, inputs)]));
}

/**
 * Outside the organic classes (issue 24 item 2) or its own similarity domain (item 1) the Tox21
 * model gives no probability as a finding: the numbers are kept for audit only.
 */
function gateTox21(compound: PreparedCompound, prediction: Tox21Prediction): Tox21Prediction {
  const outOfClass = classDomainReason(compound);
  const reason =
    outOfClass ??
    (prediction.in_domain
      ? null
      : similarityDomainReason(prediction.max_tanimoto, tox21Model().file.domain, true));
  if (reason === null) return prediction;
  return {
    ...prediction,
    probabilities: {},
    in_domain: false,
    domain_rule: outOfClass === null ? prediction.domain_rule : CLASS_DOMAIN_RULE,
    status: "out_of_domain",
    domain_reason: reason,
    raw_out_of_domain_probabilities: prediction.probabilities,
  };
}
