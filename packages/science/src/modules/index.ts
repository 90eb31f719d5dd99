// @svc/science/modules: what it takes to run the analysis modules over compounds — the module
// contract, the registry of implemented and unavailable modules, RDKit and compound preparation.
export type {
  AnalysisContext,
  AnalysisModule,
  CompoundFinding,
  InputKind,
  ModuleRun,
  RiskChannel,
  UpstreamFindings,
} from "../analysis-module.ts";
export { inOneThread } from "../define-module.ts";
export {
  defineStructureModule,
  type StructureContext,
  type StructureModule,
  type StructureModuleDefinition,
} from "../define-structure-module.ts";
export { type PreparedCompound, prepareCompound } from "../prepare-compound.ts";
export { loadRDKit, parseSmiles, type RDKit } from "../rdkit.ts";
export { IMPLEMENTED_MODULES } from "../registry.ts";
export { UNAVAILABLE_MODULES } from "../unavailable-modules.ts";
