import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { round } from "../numeric/round.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { DRUG_LIKE_RULE } from "./drug-like.ts";
import { type SolubilityClass, solubilityClass } from "./esol.ts";
import { chooseDomainFloor, ERROR_RISE } from "./solubility-fit.ts";
import {
  predictCompoundSolubility,
  SOLUBILITY_MODEL_NAMES,
  type SolubilityModelName,
  solubilityDomainRule,
  solubilityModels,
} from "./solubility-models.ts";

export interface SolubilityFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  /** Why there is no value: not parsed, outside the organic classes, or outside the model's domain. */
  readonly reason: string | null;
  /** log S (mol/L) from the model named in `model` (issue 24 item 4); null out of its domain. */
  readonly log_s: number | null;
  /** The adopted model: the lowest scaffold-grouped CV error of the candidates (solubility-models.json). */
  readonly model: SolubilityModelName | null;
  readonly solubility_class: SolubilityClass | null;
  /** The parent's nearest training parent is at least as similar as the model's floor. */
  readonly in_domain: boolean | null;
  /** Highest Tanimoto (Morgan radius 2) of the parent to a training parent; null when not assessed or out of class. */
  readonly nearest_tanimoto: number | null;
  /** The rule that decided `in_domain` (issue 24 item 1), from the model's training data; null when not assessed. */
  readonly domain_rule: string | null;
  /**
   * Every estimate, each under the name of the fit that produced it (the published ESOL equation
   * among them, for comparison); null out of the domain.
   */
  readonly estimates: Readonly<Record<SolubilityModelName, number>> | null;
  /**
   * Outside the organic classes (`molecular_logic.compound_class`, issue 24 item 2) or the model's
   * domain (issue 24 item 1): the estimates the models would give, kept for audit only; not a
   * finding. Null otherwise.
   */
  readonly raw_out_of_domain_estimates: Readonly<Record<SolubilityModelName, number>> | null;
}

export interface SolubilitySummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly out_of_domain: number;
  readonly classes: Readonly<Record<string, number>>;
  readonly model_used: SolubilityModelName;
  readonly validation: {
    /**
     * Scaffold-grouped 10-fold CV on AqSolDB's parents, acyclic parents one group (the figure the
     * model is chosen by): RMSE per candidate and the constant predictor, all and drug-like.
     */
    readonly scaffold_cv_rmse: Readonly<Record<string, { readonly all: number; readonly drug_like: number }>>;
    /** The domain's Tanimoto floor and the share of approved drugs under 700 Da inside it. */
    readonly domain_min_tanimoto: number;
    readonly approved_drugs_in_domain: { readonly under_700: number; readonly in_domain: number };
  };
  readonly method: MethodCard;
}

const ID = "solubility_assessment";

/** What the solubility models are trained on, for any page that names it (the card, the report). */
export const SOLUBILITY_TRAINING_DATA = "AqSolDB (Sorkun, Khetan & Er, Sci. Data 2019, 6, 143)";

/** The model the report shows: the one `scripts/fit-solubility-models.ts` adopted. */
export function adoptedSolubilityModel(): SolubilityModelName {
  return solubilityModels().adopted;
}

const fixed = (v: number | undefined) => (v === undefined ? "n/a" : v.toFixed(3));
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

function method(): MethodCard {
  const m = solubilityModels();
  const cv = m.scaffold_cv.figures;
  const t = m.training_set;
  const d = m.domain;
  const errorEdge = chooseDomainFloor(d.curve, cv[m.adopted].all.rmse, 0);
  const line = (name: keyof typeof cv) =>
    `${name} ${fixed(cv[name]?.all.rmse)} (drug-like ${fixed(cv[name]?.drug_like.rmse)})`;
  return {
    what:
      "Aqueous solubility log S (mol/L) of the parent, four ways, each named: ESOL with Delaney's published " +
      "coefficients (RDKit Crippen logP in place of Daylight clogP), the same four-term form refitted, ridge " +
      `regression on ${m.descriptors.length} RDKit descriptors, and a network of one hidden layer of ` +
      `${m.network.hidden} ReLU units on Morgan radius-2 bits plus the same descriptors, all trained on AqSolDB's ` +
      `parents. \`log_s\` is the adopted model's value (\`model\`: ${m.adopted}, the lowest scaffold-CV RMSE), ` +
      "binned into SwissADME's classes; outside the applicability domain (nearest training parent below the " +
      `Tanimoto floor ${fixed(d.min_tanimoto)}, or MW outside the training parents' ${d.mw_range[0]}–${d.mw_range[1]} Da) ` +
      "no value is given, only the raw estimates for audit.",
    citations: [
      "Sorkun, Khetan & Er, Sci. Data 2019, 6, 143 (AqSolDB, the training data)",
      "Delaney, J. Chem. Inf. Comput. Sci. 2004, 44, 1000 (ESOL)",
      "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet: acyclic compounds share one scaffold group)",
      "Bemis & Murcko, J. Med. Chem. 1996, 39, 2887 (scaffolds of the grouped folds)",
      "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (SwissADME solubility classes)",
      "Sheridan, Feuston, Maiorov & Kearsley, J. Chem. Inf. Comput. Sci. 2004, 44, 1912 (error against similarity to the training set: the domain)",
      "Avram et al., Nucleic Acids Res. 2023, 51, D1276 (DrugCentral: the approved-drug reference set)",
    ],
    data: [
      "aqsoldb-train.csv",
      "solubility-models.json",
      "solubility-cv.json",
      "drugcentral-structures-approval-targets.csv.gz",
    ],
    validation:
      `${m.scaffold_cv.folds}-fold CV grouped by Bemis–Murcko scaffold with every acyclic parent in one group ` +
      `(MoleculeNet's convention; ${m.scaffold_cv.groups} groups, ${m.scaffold_cv.acyclic} acyclic parents, seed ` +
      `${m.scaffold_cv.seed}) on AqSolDB's ${t.compounds} parents (${t.rows} rows: ${t.out_of_class} outside the ` +
      `organic classes and ${t.refused} refused left out, ${t.duplicates_merged} sharing a parent merged), ` +
      `${m.scaffold_cv.drug_like} of them drug-like (${DRUG_LIKE_RULE}). RMSE: ${line(m.adopted)}; ` +
      `${(["esol_published_crippen", "esol_refit_rdkit", "ridge_rdkit2d", "mlp64_morgan2_rdkit2d"] as const)
        .filter((name) => name !== m.adopted)
        .map(line)
        .join(
          "; ",
        )}; the constant predictor ${fixed(cv.constant.all.rmse)} (drug-like ${fixed(cv.constant.drug_like.rmse)}). ` +
      `Issue 36's targets (≤ 1.0 overall, ≤ 1.1 drug-like) are not reached. The network's epoch is chosen inside each ` +
      "fold on a grouped inner fold. Domain: out-of-fold RMSE by nearest training-fold Tanimoto " +
      `${d.curve.map((p) => `≥ ${p.from}: ${fixed(p.rmse)} (${p.n})`).join(", ")}. The error rises above ` +
      `${ERROR_RISE} × the overall below ${errorEdge}; the floor is the higher of that and the random-pair ` +
      `similarity ${fixed(d.random_pair_p99)} (99th percentile of random training pairs): ${fixed(d.min_tanimoto)}; ` +
      `parents outside the training MW range are out too. Approved drugs (DrugCentral) under 700 Da in ` +
      `the domain: ${d.approved_drugs.in_domain} of ${d.approved_drugs.under_700} ` +
      `(${percent(d.approved_drugs.in_domain, d.approved_drugs.under_700)}). Tests: ` +
      "solubility/solubility-models.validation.test.ts recomputes every figure from solubility-cv.json and spot-checks it " +
      "against the structures.",
    limits:
      "AqSolDB merges nine public sets of uneven reliability (its G5 rows disagree by more than 1 log unit), " +
      "measured on the compound as supplied: a salt's log S is kept for its parent, so log S is that of the parent " +
      "or its common salt, not the intrinsic solubility at a stated pH. No pH, salt-form or polymorph effect is " +
      "modelled. Outside the domain no value is given. The acyclic group is one fold, so acyclic parents are " +
      "predicted by models that never saw one: the figure is harsher than a random or ring-only split.",
  };
}
/** log S of each parsed compound's parent by the three solubility models. */
export const solubilityAssessment = defineModule<SolubilityFinding, SolubilityFinding, SolubilitySummary>({
  id: ID,
  version: "2.0.0",
  description:
    "Aqueous solubility (ESOL published and refitted, ridge, a network trained on AqSolDB) with classes and applicability domain",
  method,
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  notAssessed: (base) => ({
    ...base,
    log_s: null,
    model: null,
    solubility_class: null,
    in_domain: null,
    domain_rule: null,
    nearest_tanimoto: null,
    estimates: null,
    raw_out_of_domain_estimates: null,
  }),
  assess: assessSolubility,
  // A compound out of the domain has no class: not counted assessed, and not in not_assessed either.
  isAssessed: (finding) => finding.solubility_class !== null,
  createRun() {
    let outOfDomain = 0;
    let unclassedOutOfDomain = 0;
    const classes: Record<string, number> = {};
    return {
      merge(finding) {
        if (finding.in_domain === false) outOfDomain++;
        if (finding.solubility_class === null) {
          if (finding.in_domain === false) unclassedOutOfDomain++;
        } else classes[finding.solubility_class] = (classes[finding.solubility_class] ?? 0) + 1;
        return finding;
      },
      finish(counts): SolubilitySummary {
        const m = solubilityModels();
        return {
          assessed: counts.assessed,
          not_assessed: counts.not_assessed - unclassedOutOfDomain,
          out_of_domain: outOfDomain,
          classes,
          model_used: m.adopted,
          validation: {
            scaffold_cv_rmse: Object.fromEntries(
              Object.entries(m.scaffold_cv.figures).map(([name, f]) => [
                name,
                { all: f.all.rmse, drug_like: f.drug_like.rmse },
              ]),
            ),
            domain_min_tanimoto: m.domain.min_tanimoto,
            approved_drugs_in_domain: {
              under_700: m.domain.approved_drugs.under_700,
              in_domain: m.domain.approved_drugs.in_domain,
            },
          },
          method: method(),
        };
      },
    };
  },
});

/** The per-compound part (no run state), for a worker thread. */
function assessSolubility(compound: ParsedCompound): SolubilityFinding {
  const base = findingBase(ID, compound);
  const prediction = predictCompoundSolubility(compound);
  const estimates = Object.fromEntries(
    SOLUBILITY_MODEL_NAMES.map((name) => [name, round(prediction.estimates[name], 3)]),
  ) as Record<SolubilityModelName, number>;
  const model = adoptedSolubilityModel();
  const outOfClass = classDomainReason(compound);
  const outOfDomain =
    outOfClass ??
    (prediction.in_domain
      ? null
      : prediction.in_mw_range
        ? "outside the solubility model's domain (nearest training parent at Tanimoto " +
          `${round(prediction.nearest_tanimoto, 3)}, below its floor ${solubilityModels().domain.min_tanimoto.toFixed(3)})`
        : "outside the solubility model's domain (MW outside the training parents' range " +
          `${solubilityModels().domain.mw_range.join("–")} Da)`);
  // issue 24 item 1: out of the domain no value is a finding; the raw estimates stay for audit
  if (outOfDomain !== null)
    return {
      ...base,
      status: "assessed",
      reason: outOfDomain,
      log_s: null,
      model,
      solubility_class: null,
      in_domain: false,
      domain_rule: outOfClass === null ? solubilityDomainRule() : CLASS_DOMAIN_RULE,
      nearest_tanimoto: outOfClass === null ? round(prediction.nearest_tanimoto, 3) : null,
      estimates: null,
      raw_out_of_domain_estimates: estimates,
    };
  const logS = estimates[model];
  return {
    ...base,
    status: "assessed",
    reason: null,
    log_s: logS,
    model,
    solubility_class: solubilityClass(logS),
    in_domain: true,
    domain_rule: solubilityDomainRule(),
    nearest_tanimoto: round(prediction.nearest_tanimoto, 3),
    estimates,
    raw_out_of_domain_estimates: null,
  };
}
