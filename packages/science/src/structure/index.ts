// @svc/science/structure: structure-based work — the structure and SD readers, pockets and boxes,
// receptor and ligand preparation, docking, interaction profiles and normal modes.
export { AMINO_ACIDS, proteinChains, selectCalphas } from "./amino-acids.ts";
export { ENSEMBLE_RULE } from "./anm-conformers.ts";
export { buildAnmHessian } from "./anm-hessian.ts";
export { computeNormalModes, type NormalModes, squareFluctuations } from "./anm-modes.ts";
export { CONSENSUS_RULE, DEEP_RESCORERS } from "./consensus-score.ts";
export {
  type BatchDockingEngine,
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  DOCKING_POSES,
  type DockingReceptor,
  type DockingRequest,
  type DockingResult,
  removeDockingFolder,
  STANDARD_EXHAUSTIVENESS,
  vinaDockingArgs,
} from "./docking-engine.ts";
export {
  ANM_CUTOFF_ANGSTROM,
  ANM_GAMMA,
  ANM_MODES,
  analyseDynamicsNma,
  DYNAMICS_NMA_METHOD,
  type DynamicsNmaResult,
  MAX_CALPHAS,
  type NmaPocket,
} from "./dynamics-nma.ts";
export { type InteractionCounts, summarizeInteractions } from "./interactions/interaction-profile.ts";
export { profileInteractions } from "./interactions/profile-interactions.ts";
export { readLigandMolblock } from "./interactions/read-ligand.ts";
export { createLigandPreparer, type PreparedLigandOk } from "./ligand-preparer.ts";
export {
  type MolfileMolecule,
  parseMolBlock,
  parseSdf,
  readSdfCoordinates,
  withoutHydrogens,
} from "./molfile.ts";
export { parsePdb } from "./parse-pdb.ts";
export { createStructureReader, parseStructure, structureFormatOf } from "./parse-structure.ts";
export { isInBox, ligandResidueAtoms, parseLigandResidue } from "./pocket.ts";
export { type PocketBox, pocketBoxFromCenterSize, pocketBoxFromLigand } from "./pocket-box.ts";
export { buildReceptorEnsemble } from "./receptor-ensemble.ts";
export { createReceptorPreparer, type PreparedReceptor } from "./receptor-preparer.ts";
export { cpuMsOfStatFile } from "./run-tool.ts";
export { type ParsedStructure, type StructureAtom, StructureParseError } from "./structure-atom.ts";
export { structureToolVersions } from "./tool-versions.ts";
export type { Vec3 } from "./vec3.ts";
