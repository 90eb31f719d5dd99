import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { round } from "../numeric/round.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { type SolubilityClass, solubilityClass } from "./esol.ts";
import { predictParentSolubility, type SolubilityModelName, solubilityModels } from "./solubility-models.ts";

export interface SolubilityFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  /** Why there is no value: not parsed, outside the organic classes, or outside the model's domain. */
  readonly reason: string | null;
  /** log S (mol/L) from the model named in `model` (issue 24 item 4); null out of its domain. */
  readonly log_s: number | null;
  /** The adopted model: the lowest scaffold-grouped CV error of the candidates (solubility-models.json). */
  readonly model: SolubilityModelName | null;
  readonly solubility_class: SolubilityClass | null;
  /** The parent lies inside the training set's descriptor box and near a training compound. */
  readonly in_domain: boolean | null;
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
    /** Scaffold-grouped 10-fold CV (the figure the model is chosen by), per candidate and the constant. */
    readonly scaffold_cv_rmse: Readonly<Record<string, number>>;
    /** Huuskonen's compounds not in Delaney's set: RMSE of each model, all and in its domain. */
    readonly external_rmse: Readonly<Record<string, { readonly all: number; readonly in_domain: number }>>;
    readonly published_rmse_vs_paper_esol: number;
    /** Random 10-fold CV, kept for comparison with earlier figures; not the figure the model is chosen by. */
    readonly random_cv_rmse: {
      readonly refit: number;
      readonly kernel: number;
      readonly kernel_nested: number;
    };
  };
  readonly method: MethodCard;
}

const ID = "solubility_assessment";

/** The model the report shows: the one `scripts/fit-solubility-models.ts` adopted. */
export function adoptedSolubilityModel(): SolubilityModelName {
  return solubilityModels().adopted;
}

/** The solubility model's domain rule in one line, from its training descriptors (solubility-models.json). */
function solubilityDomainRule(): string {
  const d = Math.round(solubilityModels().kernel.domain_distance * 1000) / 1000;
  return `inside the training descriptors' box and nearest training distance ≤ ${d}, the 95th percentile`;
}

const fixed = (v: number | undefined) => (v === undefined ? "n/a" : v.toFixed(3));

function method(): MethodCard {
  const m = solubilityModels();
  const cv = m.scaffold_cv.figures;
  const ext = m.external.figures;
  return {
    what:
      "Aqueous solubility log S (mol/L) of the parent, three ways, each named: ESOL with Delaney's published " +
      "coefficients (RDKit Crippen logP in place of Daylight clogP), the same four-term form refitted on " +
      "Delaney's measured data, and a kernel ridge regression on 14 RDKit descriptors trained on the same data. " +
      `\`log_s\` is the adopted model's value (\`model\`: ${m.adopted}, the lowest scaffold-grouped CV error), ` +
      "binned into SwissADME's classes; outside the applicability domain (the training descriptors' box and the " +
      "95th-percentile nearest-neighbour distance of a training compound) no value is given, only the raw " +
      "estimates for audit.",
    citations: [
      "Delaney, J. Chem. Inf. Comput. Sci. 2004, 44, 1000 (ESOL and the measured data)",
      "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet distribution of the Delaney set)",
      "Huuskonen, J. Chem. Inf. Comput. Sci. 2000, 40, 773 (the external check's measured data)",
      "Bemis & Murcko, J. Med. Chem. 1996, 39, 2887 (scaffolds of the grouped folds)",
      "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (SwissADME solubility classes)",
      "Saunders, Gammerman & Vovk, ICML 1998 (kernel ridge regression)",
    ],
    data: ["delaney-processed.csv", "solubility-models.json", "huuskonen-external-solubility.csv"],
    validation:
      `Scaffold-grouped ${m.scaffold_cv.folds}-fold CV on Delaney's 1,128 compounds (${m.scaffold_cv.scaffolds} ` +
      `groups, seed ${m.scaffold_cv.seed}; kernel hyperparameters chosen inside each fold): kernel ridge RMSE ` +
      `${fixed(cv.kernel_ridge_rdkit14?.rmse)}, refitted ESOL ${fixed(cv.esol_refit_rdkit?.rmse)}, published ESOL ` +
      `${fixed(cv.esol_published_crippen?.rmse)}, constant predictor ${fixed(cv.constant?.rmse)}. External check ` +
      `(${m.external.set}; ${m.external.in_domain} in the domain): adopted model RMSE ` +
      `${fixed(ext[m.adopted]?.all.rmse)} on all, ${fixed(ext[m.adopted]?.in_domain.rmse)} in its domain ` +
      `(published ESOL ${fixed(ext.esol_published_crippen?.all.rmse)}, constant ` +
      `${fixed(ext.constant?.all.rmse)}). Random 10-fold CV (not the figure the model is chosen by): kernel ` +
      `${fixed(m.kernel.cv_rmse)}. Published ESOL vs the paper's own ESOL column: RMSE ` +
      `${fixed(m.published.rmse_vs_paper_esol)}, r² ${fixed(m.published.r2_vs_paper_esol)}. Tests: ` +
      "solubility/solubility-models.test.ts.",
    limits:
      "Trained on 1,128 mostly small, neutral compounds (pesticides, solvents, simple drugs): outside the domain " +
      "no value is given. No pH, salt form or polymorph effects; log S of the neutral parent.",
  };
}

/** log S of each parsed compound's parent by the three solubility models. */
export const solubilityAssessment = defineModule<SolubilityFinding, SolubilityFinding, SolubilitySummary>({
  id: ID,
  version: "1.0.0",
  description:
    "Aqueous solubility (ESOL published and refitted, kernel model) with classes and applicability domain",
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
              Object.entries(m.scaffold_cv.figures).map(([name, f]) => [name, f.rmse]),
            ),
            external_rmse: Object.fromEntries(
              Object.entries(m.external.figures).map(([name, f]) => [
                name,
                { all: f.all.rmse, in_domain: f.in_domain.rmse },
              ]),
            ),
            published_rmse_vs_paper_esol: m.published.rmse_vs_paper_esol,
            random_cv_rmse: {
              refit: m.refit.cv_rmse,
              kernel: m.kernel.cv_rmse,
              kernel_nested: m.kernel.nested_cv_rmse,
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
  const prediction = withParentMol(compound, (mol, rdkit) => predictParentSolubility(rdkit, mol));
  const estimates: Record<SolubilityModelName, number> = {
    esol_published_crippen: round(prediction.published, 3),
    esol_refit_rdkit: round(prediction.refit, 3),
    kernel_ridge_rdkit14: round(prediction.kernel, 3),
  };
  const model = adoptedSolubilityModel();
  const outOfClass = classDomainReason(compound);
  const outOfDomain =
    outOfClass ??
    (prediction.in_domain
      ? null
      : "outside the solubility model's domain (its training descriptors' box or the 95th-percentile " +
        `nearest-neighbour distance of a training compound: ${round(prediction.nearest_distance, 3)})`);
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
    estimates,
    raw_out_of_domain_estimates: null,
  };
}
