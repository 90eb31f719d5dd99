import type { StructureModule } from "../../define-structure-module.ts";
import { advancedCompChemSummaryModule } from "./advanced-comp-chem-summary-module.ts";
import { crypticPocketsModule } from "./cryptic-pockets-module.ts";
import { dynamicsNmaModule } from "./dynamics-nma-module.ts";
import { interactionStabilityModule } from "./interaction-stability-module.ts";
import { molecularDockingModule } from "./molecular-docking-module.ts";
import { physicsBindingModule } from "./physics-binding-module.ts";
import { physicsAuditModule, quantumTargetAuditModule } from "./physics-modules.ts";
import { qmmmAnalysisModule } from "./qmmm-analysis-module.ts";

/**
 * The structure modules this build implements, in the order the structure stage runs them
 * (exported by `@svc/science/structure-modules`, index.ts).
 */
export const STRUCTURE_MODULES: readonly StructureModule[] = [
  dynamicsNmaModule,
  molecularDockingModule,
  // After docking: they audit its best-scored poses; physics_audit first, quantum_target_audit reuses its relaxation.
  physicsAuditModule,
  quantumTargetAuditModule,
  // After docking too: MM-GBSA rescoring of its best-scored poses.
  physicsBindingModule,
  // After docking too: the GFN2 QM-cluster interaction energy of its best-scored poses (deep only).
  qmmmAnalysisModule,
  // After docking too: short MD of its best-scored poses (pose stability).
  interactionStabilityModule,
  // Per structure, independent of the others: ConCavity on the receptor and its ANM conformers (EXPLORATORY).
  crypticPocketsModule,
  // Last: it reads the results files the modules above wrote for the same structure.
  advancedCompChemSummaryModule,
];
