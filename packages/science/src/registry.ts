import { admetPredictions } from "./admet/admet-predictions.ts";
import type { AnalysisModule } from "./analysis-module.ts";
import { clinicalPrecedentPrior } from "./clinical/clinical-precedent-prior.ts";
import { kinaseDrugLikeness } from "./kinase-drug-likeness.ts";
import { manufacturabilityAudit } from "./manufacturability/manufacturability-audit.ts";
import { molecularLogic } from "./molecular-logic.ts";
import { solubilityAssessment } from "./solubility/solubility-assessment.ts";
import { toxicityProfile } from "./toxicity/toxicity-profile.ts";
import { uncertaintyQuantification } from "./uncertainty/uncertainty-quantification.ts";

/** Modules this build implements; every other policy module is `not_available`, never faked. */
export const IMPLEMENTED_MODULES: readonly AnalysisModule[] = [
  molecularLogic as unknown as AnalysisModule,
  kinaseDrugLikeness as unknown as AnalysisModule,
  toxicityProfile as unknown as AnalysisModule,
  solubilityAssessment as unknown as AnalysisModule,
  admetPredictions as unknown as AnalysisModule,
  manufacturabilityAudit as unknown as AnalysisModule,
  clinicalPrecedentPrior as unknown as AnalysisModule,
  uncertaintyQuantification as unknown as AnalysisModule,
];
