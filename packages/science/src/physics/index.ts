// @svc/science/physics: ligand physics (conformers, xTB) and MM-GBSA binding.
export { auditLigandPhysics, CONFORMER_SEARCH, type LigandPhysics } from "./ligand-physics.ts";
export {
  MM_GBSA_CAPS,
  MM_GBSA_SETTINGS,
  type MmGbsaReceptor,
  prepareMmGbsaReceptor,
  scoreMmGbsa,
} from "./mm-gbsa.ts";
export { physicsBindingMethod } from "./mm-gbsa-method.ts";
export { PHYSICS_CAPS, physicsAuditMethod, quantumTargetAuditMethod } from "./physics-methods.ts";
