// @svc/science/structure: structure-based work — the structure and SD readers, pockets and boxes,
// receptor and ligand preparation, docking, interaction profiles and normal modes.
export { AMINO_ACIDS, proteinChains, selectCalphas } from "./amino-acids.ts";
export { buildAnmHessian } from "./anm-hessian.ts";
export { computeNormalModes, type NormalModes, squareFluctuations } from "./anm-modes.ts";
export {
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  DOCKING_POSES,
  type DockingRequest,
  type DockingResult,
  removeDockingFolder,
  STANDARD_EXHAUSTIVENESS,
  vinaDockingArgs,
} from "./docking-engine.ts";
export { ANM_CUTOFF_ANGSTROM, ANM_GAMMA, ANM_MODES, MAX_CALPHAS, type NmaPocket } from "./dynamics-nma.ts";
export type { InteractionCounts } from "./interactions/interaction-profile.ts";
export { createLigandPreparer, type PreparedLigandOk } from "./ligand-preparer.ts";
export {
  type MolfileMolecule,
  parseMolBlock,
  parseSdf,
  readSdfCoordinates,
  withoutHydrogens,
} from "./molfile.ts";
export { createStructureReader, parseStructure, structureFormatOf } from "./parse-structure.ts";
export { isInBox, ligandResidueAtoms, parseLigandResidue } from "./pocket.ts";
export { pocketBoxFromCenterSize, pocketBoxFromLigand } from "./pocket-box.ts";
export { createReceptorPreparer } from "./receptor-preparer.ts";
export { cpuMsOfStatFile } from "./run-tool.ts";
export { type ParsedStructure, StructureParseError } from "./structure-atom.ts";
export { structureToolVersions } from "./tool-versions.ts";
export type { Vec3 } from "./vec3.ts";
