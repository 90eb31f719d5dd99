import { admetPredictions } from "./admet/admet-predictions.ts";
import { cypAssessment } from "./admet/cyp-assessment.ts";
import type { AnalysisModule } from "./analysis-module.ts";
import { clinicalPrecedentPrior } from "./clinical/clinical-precedent-prior.ts";
import { cnsPenetration } from "./cns/cns-penetration.ts";
import { gcnToxicity } from "./gnn/gcn-toxicity.ts";
import { kinaseDrugLikeness } from "./kinase-drug-likeness.ts";
import { manufacturabilityAudit } from "./manufacturability/manufacturability-audit.ts";
import { metabolitePrediction } from "./metabolism/metabolite-prediction.ts";
import { molecularLogic } from "./molecular-logic.ts";
import { offtargetScreening } from "./offtarget/offtarget-screening.ts";
import { wetlabReadiness } from "./readiness/wetlab-readiness.ts";
import { sarExplorer } from "./sar/sar-explorer.ts";
import { solubilityAssessment } from "./solubility/solubility-assessment.ts";
import { synthesisAudit } from "./synthesis/synthesis-audit.ts";
import { targetBiologyRisk } from "./target-risk/target-biology-risk.ts";
import { toxicityProfile } from "./toxicity/toxicity-profile.ts";
import { uncertaintyQuantification } from "./uncertainty/uncertainty-quantification.ts";
import { yScrambleValidation } from "./yscramble/y-scramble-validation.ts";

/** Modules reading only the compound. */
const PER_COMPOUND_MODULES: readonly AnalysisModule[] = [
  molecularLogic,
  kinaseDrugLikeness,
  toxicityProfile,
  gcnToxicity,
  solubilityAssessment,
  admetPredictions,
  cypAssessment,
  manufacturabilityAudit,
  synthesisAudit,
  metabolitePrediction,
  clinicalPrecedentPrior,
  uncertaintyQuantification,
  cnsPenetration,
  offtargetScreening,
  // Assay-driven: run only when assays.csv is staged (requiredInputs).
  sarExplorer,
  yScrambleValidation,
];

/** Modules that also read other modules' findings of the compound (`reads`): they run after all of the above. */
const READING_MODULES: readonly AnalysisModule[] = [targetBiologyRisk, wetlabReadiness];

/** Modules this build implements, in run order; every other policy module is `not_available`, never faked. */
export const IMPLEMENTED_MODULES: readonly AnalysisModule[] = [...PER_COMPOUND_MODULES, ...READING_MODULES];
