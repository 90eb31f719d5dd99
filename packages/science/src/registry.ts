import { admetPredictions } from "./admet/admet-predictions.ts";
import { cypAssessment } from "./admet/cyp-assessment.ts";
import type { AnalysisModule } from "./analysis-module.ts";
import { clinicalPrecedentPrior } from "./clinical/clinical-precedent-prior.ts";
import { gcnToxicity } from "./gnn/gcn-toxicity.ts";
import { kinaseDrugLikeness } from "./kinase-drug-likeness.ts";
import { manufacturabilityAudit } from "./manufacturability/manufacturability-audit.ts";
import { metabolitePrediction } from "./metabolism/metabolite-prediction.ts";
import { molecularLogic } from "./molecular-logic.ts";
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
  molecularLogic as unknown as AnalysisModule,
  kinaseDrugLikeness as unknown as AnalysisModule,
  toxicityProfile as unknown as AnalysisModule,
  gcnToxicity as unknown as AnalysisModule,
  solubilityAssessment as unknown as AnalysisModule,
  admetPredictions as unknown as AnalysisModule,
  cypAssessment as unknown as AnalysisModule,
  manufacturabilityAudit as unknown as AnalysisModule,
  synthesisAudit as unknown as AnalysisModule,
  metabolitePrediction as unknown as AnalysisModule,
  clinicalPrecedentPrior as unknown as AnalysisModule,
  uncertaintyQuantification as unknown as AnalysisModule,
  // Assay-driven: run only when assays.csv is staged (requiredInputs).
  sarExplorer as unknown as AnalysisModule,
  yScrambleValidation as unknown as AnalysisModule,
];

/** Modules that also read other modules' findings of the compound (`reads`): they run after all of the above. */
const READING_MODULES: readonly AnalysisModule[] = [
  targetBiologyRisk as unknown as AnalysisModule,
  wetlabReadiness as unknown as AnalysisModule,
];

/** Modules this build implements, in run order; every other policy module is `not_available`, never faked. */
export const IMPLEMENTED_MODULES: readonly AnalysisModule[] = [...PER_COMPOUND_MODULES, ...READING_MODULES];
