import {
  type CompoundFinding,
  findingBase,
  type MethodCard,
  type UpstreamFindings,
} from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { packBits } from "../fingerprint/morgan.ts";
import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import {
  DRUGCENTRAL_CITATION,
  DRUGCENTRAL_INDEX_FILE,
  DRUGCENTRAL_SOURCE_FILE,
  drugCentralIndex,
  type SafetyNeighbourValidation,
} from "./drugcentral-index.ts";
import { type NeighbourDrug, type PredictedTarget, predictFromNeighbours } from "./off-target-neighbours.ts";
import {
  BOWES_2012,
  BRENNAN_2024,
  OPEN_TARGETS_CURATION,
  SAFETY_PANEL_FILES,
  type SafetyPanel,
  safetyPanel,
} from "./safety-panel.ts";
import { assessStagedTarget, type TargetAssessment } from "./staged-target.ts";

/**
 * A predicted off-target liability: a panel target the compound's nearest drugs act on, and the
 * organ systems it touches. What modulating it does (adverse effects by direction, PubMed id) is the
 * panel's, the same for every compound: it is stated once per run, in the summary's `panel_effects`
 * (issue 42 item 2: run-wide text out of every record; it was most of a report card's bytes).
 */
export interface OffTargetLiability extends PredictedTarget {
  readonly panel: SafetyPanel;
  readonly organ_systems: readonly string[];
  /** The project stages this target (targets.csv): activity there is intended, its effects on-target. */
  readonly staged_target: boolean;
}

/** One panel target's effects as its panel states them, once per run for the targets predicted. */
export interface PanelEffects {
  readonly panel: SafetyPanel;
  readonly adverse_effects_on_activation: readonly string[];
  readonly adverse_effects_on_inhibition: readonly string[];
  readonly pmid: string;
}

/** toxicity_profile's hERG model output as read here, or why there is none. */
export interface HergReading {
  readonly status: "present" | "missing";
  readonly source: "toxicity_profile.herg";
  readonly probability: number | null;
  readonly in_domain: boolean | null;
  readonly model_id: string | null;
  readonly reason: string | null;
}

export interface TargetBiologyRiskFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Predicted panel liabilities, strongest evidence first; null when no prediction was made. */
  readonly off_target_liabilities: readonly OffTargetLiability[] | null;
  /** The most similar DrugCentral drugs acting on a panel target, whatever the threshold. */
  readonly nearest_drugs: readonly NeighbourDrug[] | null;
  readonly max_tanimoto: number | null;
  /** A drug at or above the threshold exists, so the absence of a liability is informative at all. */
  readonly in_domain: boolean | null;
  readonly herg: HergReading;
  /** Whether the staged targets were assessed (summary `target_side`) or not staged. */
  readonly target_side: "assessed" | "missing_input";
}

export interface TargetBiologyRiskSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly with_liabilities: number;
  readonly out_of_domain: number;
  /** Panel gene symbol → compounds predicted to act there, most frequent first. */
  readonly liability_counts: Readonly<Record<string, number>>;
  /** What modulating each predicted target does, as its panel states it (the records name only the target). */
  readonly panel_effects: Readonly<Record<string, PanelEffects>>;
  readonly herg: { readonly present: number; readonly missing: number };
  readonly target_side: {
    readonly status: "assessed" | "missing_input";
    readonly reason: string | null;
    readonly targets: readonly TargetAssessment[];
    readonly on_safety_panel: number;
  };
  readonly threshold: number;
  readonly reference_drugs: number;
  readonly panel_targets: { readonly bowes2012: number; readonly brennan2024: number };
  readonly validation: SafetyNeighbourValidation;
  readonly method: MethodCard;
}

export const TARGET_BIOLOGY_RISK_ID = "target_biology_risk";
const ID = TARGET_BIOLOGY_RISK_ID;
const TOXICITY_PROFILE = "toxicity_profile";
const NO_TARGETS =
  "no targets.csv staged: the target side is missing_input; the compound side runs without it";

const SIMILARITY_CITATIONS = [
  "Keiser et al., Nat. Biotechnol. 2007, 25, 197 (relating protein pharmacology by ligand chemistry)",
  "Lounkine et al., Nature 2012, 486, 361 (large-scale prediction of drug activity on side-effect targets from ligand similarity)",
  "Jasial, Hu, Vogt & Bajorath, F1000Research 2016, 5, 591 (activity-relevant similarity values depend on the fingerprint)",
  "Rogers & Hahn, J. Chem. Inf. Model. 2010, 50, 742 (Morgan/ECFP fingerprints)",
  "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet scaffold split)",
];

/** The figures quoted by the card and docs/science.md, all from the checked-in index. */
export function targetRiskValidation(): SafetyNeighbourValidation {
  return drugCentralIndex().file.validation;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function method(): MethodCard {
  const v = targetRiskValidation();
  const { most_frequent: constant, prevalence_random: random } = v.baselines;
  const at = (t: number) => v.test_curve.find((p) => p.threshold === t);
  const strict = at(0.5);
  const drugs = drugCentralIndex().file.drugs.length;
  const herg = v.per_target.find((p) => p.gene_symbol === "KCNH2");
  return {
    what:
      "Two sides. Target side: each target staged in targets.csv (gene symbol or UniProt accession) is looked up " +
      "on the in-vitro safety pharmacology panels of Bowes et al. 2012 (44 targets) and Brennan et al. 2024 " +
      "(33 secondary pharmacology targets), as curated by Open Targets: whether it is on a panel, its organ " +
      "systems and the adverse effects of its activation and of its inhibition, with the paper's PubMed id. " +
      `Compound side: the ${drugs.toLocaleString("en")} DrugCentral drugs that act on a panel target are ` +
      "compared with the compound's parent (Tanimoto on Morgan radius-2, 2,048-bit fingerprints); every panel " +
      `target of a drug at least ${v.threshold} similar is a predicted off-target liability, with those drugs ` +
      "named as evidence (name, DrugCentral id, approvals, similarity). Beside it, toxicity_profile's hERG model " +
      "output when that module carries one (key herg), else the reason it is missing.",
    citations: [
      BOWES_2012,
      BRENNAN_2024,
      OPEN_TARGETS_CURATION,
      DRUGCENTRAL_CITATION,
      ...SIMILARITY_CITATIONS,
    ],
    data: [...SAFETY_PANEL_FILES, DRUGCENTRAL_SOURCE_FILE, DRUGCENTRAL_INDEX_FILE],
    validation:
      `Scaffold-disjoint split of DrugCentral itself (${v.compounds.train.toLocaleString("en")} train, ` +
      `${v.compounds.valid} valid, ${v.compounds.test} test drugs with a target; ${v.with_panel_target.test} ` +
      "test drugs act on a panel target): for each test drug, are its DrugCentral panel targets predicted " +
      "from the train drugs alone? Over (drug, panel target) pairs at the threshold chosen on valid " +
      `(${v.threshold}, best valid F1 on a 0.30–0.80 grid): precision ${v.test.precision}, recall ` +
      `${v.test.recall}, F1 ${v.test.f1} (${v.test.true_positives} of ${v.test.actual} known pairs found, ` +
      `${v.test.predicted} predicted; ${v.test.covered} of ${v.compounds.test} test drugs had a neighbour). ` +
      `Baselines on the same rows: the ${constant.k} most frequent panel targets for every drug ` +
      `(${constant.targets.join(", ")}) precision ${constant.precision}, recall ${constant.recall}, F1 ` +
      `${constant.f1}; each target at random with its train prevalence (expected) precision ` +
      `${random.precision}, recall ${random.recall}, F1 ${random.f1}.` +
      (strict === undefined
        ? ""
        : ` At 0.5 precision rises to ${strict.precision} and recall falls to ${strict.recall}.`) +
      " The index and these figures are regenerated by scripts/build-drugcentral-safety-index.ts in " +
      "target-risk/drugcentral-safety-index.validation.test.ts; the neighbour similarities equal native RDKit's.",
    limits:
      `Precision is low (${percent(v.test.precision)} of predicted pairs are DrugCentral-annotated): a ` +
      "liability here is a hypothesis to test on the panel, not a measurement. DrugCentral's target lists are " +
      "incomplete (an unmeasured pair counts as a false positive, and a drug with no target at all is left out " +
      "of the evaluation), and they do not say whether a drug activates or inhibits the target, so both " +
      "directions' adverse effects are listed. A compound with no drug at or above the threshold gets no " +
      "prediction (in_domain false), which is not evidence of selectivity. An approved drug in the portfolio finds " +
      "itself (similarity 1) and so its own DrugCentral targets. The target side covers the 79 panel targets " +
      "only; a staged target not on them is reported as such, never as safe." +
      (herg === undefined
        ? ""
        : ` hERG (KCNH2) blockers are chemically diverse: neighbours found ${herg.true_positives} of ${herg.actual} ` +
          `test hERG drugs (recall ${herg.recall}), so a missing KCNH2 liability says little; the hERG model ` +
          "(toxicity_profile's herg, when present) is the better guide there."),
  };
}

/** Target side, compound-side off-target liabilities and hERG, per compound and for the staged targets. */
export const targetBiologyRisk = defineModule<
  TargetBiologyRiskFinding,
  TargetRiskAssessment,
  TargetBiologyRiskSummary
>({
  id: ID,
  version: "1.0.0",
  description:
    "Safety-panel membership of the staged targets (Bowes 2012, Brennan 2024) and off-target liabilities " +
    "predicted from the nearest DrugCentral drugs acting on panel targets, with toxicity_profile's hERG",
  method,
  // Honest about targets.csv: without it the compound side still runs and says the target side is
  // missing_input, so the module is not skipped (module-plan.ts skips on requiredInputs only).
  requiredInputs: ["portfolio"],
  optionalInputs: ["targets"],
  riskChannel: "biology",
  reads: [TOXICITY_PROFILE],
  // Rebuilt by the run's `notAssessed` (hERG and the target side are run state).
  notAssessed: (base) => ({
    ...base,
    off_target_liabilities: null,
    nearest_drugs: null,
    max_tanimoto: null,
    in_domain: null,
    herg: readHerg(undefined),
    target_side: "missing_input",
  }),
  assess: assessTargetRisk,
  createRun(context) {
    const staged = context?.targets ?? null;
    const targets = staged === null ? [] : staged.map(assessStagedTarget);
    const stagedSymbols = new Set(targets.flatMap((t) => (t.gene_symbol === null ? [] : [t.gene_symbol])));
    const targetSide = staged === null ? "missing_input" : "assessed";
    let withLiabilities = 0;
    let outOfDomain = 0;
    const herg = { present: 0, missing: 0 };
    const liabilityCounts = new Map<string, number>();
    const merge = (
      assessment: TargetRiskAssessment,
      upstream: UpstreamFindings | undefined,
    ): TargetBiologyRiskFinding => {
      const reading = readHerg(upstream);
      herg[reading.status]++;
      const liabilities =
        assessment.liabilities === null
          ? null
          : assessment.liabilities.map((l) => ({ ...l, staged_target: stagedSymbols.has(l.gene_symbol) }));
      if (assessment.in_domain === false) outOfDomain++;
      if (liabilities !== null && liabilities.length > 0) withLiabilities++;
      for (const l of liabilities ?? [])
        liabilityCounts.set(l.gene_symbol, (liabilityCounts.get(l.gene_symbol) ?? 0) + 1);
      return {
        candidate_id: assessment.candidate_id,
        evidence_id: assessment.evidence_id,
        status: assessment.status,
        reason: assessment.reason,
        off_target_liabilities: liabilities,
        nearest_drugs: assessment.nearest,
        max_tanimoto: assessment.max_tanimoto,
        in_domain: assessment.in_domain,
        herg: reading,
        target_side: targetSide,
      };
    };
    return {
      merge,
      notAssessed: ({ candidate_id, evidence_id, status, reason }, upstream) =>
        merge(
          {
            candidate_id,
            evidence_id,
            status,
            reason,
            liabilities: null,
            nearest: null,
            max_tanimoto: null,
            in_domain: null,
          },
          upstream,
        ),
      finish(counts): TargetBiologyRiskSummary {
        const panel = safetyPanel();
        const { file } = drugCentralIndex();
        return {
          ...counts,
          with_liabilities: withLiabilities,
          out_of_domain: outOfDomain,
          liability_counts: Object.fromEntries(
            [...liabilityCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
          ),
          panel_effects: Object.fromEntries(
            panel
              .filter((t) => liabilityCounts.has(t.gene_symbol))
              .sort((a, b) => (a.gene_symbol < b.gene_symbol ? -1 : 1))
              .map((t) => [
                t.gene_symbol,
                {
                  panel: t.panel,
                  adverse_effects_on_activation: t.adverse_effects_on_activation,
                  adverse_effects_on_inhibition: t.adverse_effects_on_inhibition,
                  pmid: t.pmid,
                },
              ]),
          ),
          herg,
          target_side: {
            status: targetSide,
            reason: staged === null ? NO_TARGETS : null,
            targets,
            on_safety_panel: targets.filter((t) => t.on_safety_panel).length,
          },
          threshold: file.validation.threshold,
          reference_drugs: file.drugs.length,
          panel_targets: {
            bowes2012: panel.filter((t) => t.panel === "bowes2012").length,
            brennan2024: panel.filter((t) => t.panel === "brennan2024").length,
          },
          validation: file.validation,
          method: method(),
        };
      },
    };
  },
});

/** The worker's part (analysis-module.ts): the neighbour search; the run state and hERG are merged later. */
export interface TargetRiskAssessment extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  readonly liabilities: readonly Omit<OffTargetLiability, "staged_target">[] | null;
  readonly nearest: readonly NeighbourDrug[] | null;
  readonly max_tanimoto: number | null;
  readonly in_domain: boolean | null;
}

function assessTargetRisk(compound: ParsedCompound): TargetRiskAssessment {
  const base = findingBase(ID, compound);
  // Outside the organic classes the drugs say nothing of the compound (issue 24 item 2).
  const outOfClass = classDomainReason(compound);
  if (outOfClass !== null)
    return {
      ...base,
      status: "assessed",
      reason: outOfClass,
      liabilities: null,
      nearest: null,
      max_tanimoto: null,
      in_domain: false,
    };
  const { file, set } = drugCentralIndex();
  const threshold = file.validation.threshold;
  const prediction = predictFromNeighbours(packBits(compoundOnBits(compound)), file.drugs, set, threshold);
  const panel = new Map(safetyPanel().map((t) => [t.gene_symbol, t]));
  const liabilities = prediction.targets.map((predicted) => {
    const target = panel.get(predicted.gene_symbol);
    return {
      ...predicted,
      panel: target?.panel ?? "bowes2012",
      organ_systems: target?.organ_systems ?? [],
    };
  });
  const inDomain = prediction.targets.length > 0;
  return {
    ...base,
    status: "assessed",
    reason: inDomain
      ? null
      : `no DrugCentral drug acting on a panel target is at least ${threshold} similar (nearest ${prediction.max_tanimoto}): ` +
        "no prediction either way",
    liabilities,
    nearest: prediction.nearest,
    max_tanimoto: prediction.max_tanimoto,
    in_domain: inDomain,
  };
}

/** toxicity_profile's `herg` key ({ probability, in_domain, model_id, … }) when that module carries it. */
function readHerg(upstream: UpstreamFindings | undefined): HergReading {
  const missing = (reason: string): HergReading => ({
    status: "missing",
    source: "toxicity_profile.herg",
    probability: null,
    in_domain: null,
    model_id: null,
    reason,
  });
  const finding = upstream?.get(TOXICITY_PROFILE) as (CompoundFinding & { herg?: unknown }) | undefined;
  if (finding === undefined) return missing("toxicity_profile did not run for this compound");
  if (!("herg" in finding))
    return missing("toxicity_profile in this build has no hERG model (no herg key): hERG is not assessed");
  const herg = finding.herg as {
    probability?: unknown;
    in_domain?: unknown;
    model_id?: unknown;
    domain_reason?: unknown;
  } | null;
  if (herg !== null && typeof herg === "object" && typeof herg.domain_reason === "string")
    return missing(`toxicity_profile.herg is out of its domain: ${herg.domain_reason}`);
  if (herg === null || typeof herg !== "object" || typeof herg.probability !== "number")
    return missing("toxicity_profile gave no hERG probability for this compound");
  return {
    status: "present",
    source: "toxicity_profile.herg",
    probability: herg.probability,
    in_domain: typeof herg.in_domain === "boolean" ? herg.in_domain : null,
    model_id: typeof herg.model_id === "string" ? herg.model_id : null,
    reason: null,
  };
}
