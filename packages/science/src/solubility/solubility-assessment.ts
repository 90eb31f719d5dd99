import {
  type AnalysisModule,
  type CompoundFinding,
  findingBase,
  type MethodCard,
  unparseableFinding,
} from "../analysis-module.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { type SolubilityClass, solubilityClass } from "./esol.ts";
import { predictParentSolubility, type SolubilityModelName, solubilityModels } from "./solubility-models.ts";

export interface SolubilityFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** log S (mol/L) from the model named in `esol_model`. */
  readonly esol_logs: number | null;
  readonly esol_model: SolubilityModelName | null;
  readonly solubility_class: SolubilityClass | null;
  /** The parent lies inside the training set's descriptor box and near a training compound. */
  readonly in_domain: boolean | null;
  /** Every estimate, each under the name of the fit that produced it. */
  readonly estimates: Readonly<Record<SolubilityModelName, number>> | null;
  /**
   * For a compound outside the organic classes (`molecular_logic.compound_class`, issue 24 item 2):
   * the estimates the models would give, kept for audit only; not a finding. Null otherwise.
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
    readonly published_rmse_vs_measured: number;
    readonly published_rmse_vs_paper_esol: number;
    readonly refit_cv_rmse: number;
    readonly kernel_cv_rmse: number;
    readonly kernel_nested_cv_rmse: number;
  };
  readonly method: MethodCard;
}

const ID = "solubility_assessment";
export const SOLUBILITY_MODEL_USED: SolubilityModelName = "kernel_ridge_rdkit14";

function method(): MethodCard {
  const m = solubilityModels();
  return {
    what:
      "Aqueous solubility log S (mol/L) of the parent, three ways, each named: ESOL with Delaney's published " +
      "coefficients (RDKit Crippen logP in place of Daylight clogP), the same four-term form refitted on " +
      "Delaney's measured data, and a kernel ridge regression on 14 RDKit descriptors trained on the same data; " +
      "the report uses the kernel model (lowest cross-validated error), binned into SwissADME's classes, with " +
      "an applicability domain.",
    citations: [
      "Delaney, J. Chem. Inf. Comput. Sci. 2004, 44, 1000 (ESOL and the measured data)",
      "Wu et al., Chem. Sci. 2018, 9, 513 (MoleculeNet distribution of the Delaney set)",
      "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (SwissADME solubility classes)",
      "Saunders, Gammerman & Vovk, ICML 1998 (kernel ridge regression)",
    ],
    data: ["delaney-processed.csv", "solubility-models.json"],
    validation:
      `On Delaney's 1,128 compounds (${m.folds}-fold CV, seed ${m.seed}): kernel model CV RMSE ` +
      `${m.kernel.cv_rmse.toFixed(3)} (nested CV with hyperparameters chosen inside each fold ` +
      `${m.kernel.nested_cv_rmse.toFixed(3)}); refitted ESOL form ${m.refit.cv_rmse.toFixed(3)}; published ` +
      `ESOL with Crippen logP ${m.published.rmse_vs_measured.toFixed(3)} vs measured and ` +
      `${m.published.rmse_vs_paper_esol.toFixed(3)} vs the paper's own ESOL column (the paper: 0.91). ` +
      "Test: solubility/solubility-models.test.ts.",
    limits:
      "Trained on 1,128 mostly small, neutral compounds (pesticides, solvents, simple drugs): outside the domain " +
      "(in_domain false) the error grows several-fold (science review: r² 0.18–0.41 out of domain). No pH, " +
      "salt form or polymorph effects; log S of the neutral parent.",
  };
}

/** log S of each parsed compound's parent by the three solubility models. */
export const solubilityAssessment: AnalysisModule<SolubilityFinding, SolubilitySummary> = {
  id: ID,
  version: "1.0.0",
  description:
    "Aqueous solubility (ESOL published and refitted, kernel model) with classes and applicability domain",
  get method() {
    return method();
  },
  requiredInputs: ["portfolio"],
  riskChannel: "chemistry",
  assess: assessSolubility,
  createAnalyzer() {
    let assessed = 0;
    let notAssessed = 0;
    let outOfDomain = 0;
    const classes: Record<string, number> = {};
    const merge = (finding: SolubilityFinding): SolubilityFinding => {
      if (finding.solubility_class === null) {
        if (finding.in_domain === false) outOfDomain++;
        else notAssessed++;
        return finding;
      }
      assessed++;
      classes[finding.solubility_class] = (classes[finding.solubility_class] ?? 0) + 1;
      if (!finding.in_domain) outOfDomain++;
      return finding;
    };
    return {
      analyze: (compound: PreparedCompound) => merge(assessSolubility(compound)),
      merge,
      finish(): SolubilitySummary {
        const m = solubilityModels();
        return {
          assessed,
          not_assessed: notAssessed,
          out_of_domain: outOfDomain,
          classes,
          model_used: SOLUBILITY_MODEL_USED,
          validation: {
            published_rmse_vs_measured: m.published.rmse_vs_measured,
            published_rmse_vs_paper_esol: m.published.rmse_vs_paper_esol,
            refit_cv_rmse: m.refit.cv_rmse,
            kernel_cv_rmse: m.kernel.cv_rmse,
            kernel_nested_cv_rmse: m.kernel.nested_cv_rmse,
          },
          method: method(),
        };
      },
    };
  },
};

/** The per-compound part (no run state), for a worker thread. */
function assessSolubility(compound: PreparedCompound): SolubilityFinding {
  if (!compound.ok) {
    return {
      ...unparseableFinding(ID, compound),
      esol_logs: null,
      esol_model: null,
      solubility_class: null,
      in_domain: null,
      estimates: null,
      raw_out_of_domain_estimates: null,
    };
  }
  const base = findingBase(ID, compound);
  const prediction = withParentMol(compound, (mol, rdkit) => predictParentSolubility(rdkit, mol));
  const logS = round(prediction.kernel);
  const estimates = {
    esol_published_crippen: round(prediction.published),
    esol_refit_rdkit: round(prediction.refit),
    kernel_ridge_rdkit14: logS,
  };
  const outOfClass = classDomainReason(compound);
  if (outOfClass !== null)
    return {
      ...base,
      status: "assessed",
      reason: outOfClass,
      esol_logs: null,
      esol_model: SOLUBILITY_MODEL_USED,
      solubility_class: null,
      in_domain: false,
      estimates: null,
      raw_out_of_domain_estimates: estimates,
    };
  return {
    ...base,
    status: "assessed",
    reason: null,
    esol_logs: logS,
    esol_model: SOLUBILITY_MODEL_USED,
    solubility_class: solubilityClass(logS),
    in_domain: prediction.in_domain,
    estimates,
    raw_out_of_domain_estimates: null,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
