import { advancedCompChemSummaryModule } from "./advanced-comp-chem-summary-module.ts";
import { dynamicsNmaModule } from "./dynamics-nma-module.ts";
import { interactionStabilityModule } from "./interaction-stability-module.ts";
import { molecularDockingModule } from "./molecular-docking-module.ts";
import { physicsBindingModule } from "./physics-binding-module.ts";
import { physicsAuditModule, quantumTargetAuditModule } from "./physics-modules.ts";
import type { StructureModule } from "./structure-module.ts";

/** The structure modules this build implements, in the order the structure stage runs them. */
export const STRUCTURE_MODULES: readonly StructureModule[] = [
  dynamicsNmaModule,
  molecularDockingModule as StructureModule,
  // After docking: they audit its best-scored poses; physics_audit first, quantum_target_audit reuses its relaxation.
  physicsAuditModule as StructureModule,
  quantumTargetAuditModule as StructureModule,
  // After docking too: MM-GBSA rescoring of its best-scored poses.
  physicsBindingModule as StructureModule,
  // After docking too: short MD of its best-scored poses (pose stability).
  interactionStabilityModule as StructureModule,
  // Last: it reads the results files the modules above wrote for the same structure.
  advancedCompChemSummaryModule as StructureModule,
];
