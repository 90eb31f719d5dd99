// @svc/science/physics: ligand physics (conformers, xTB) and MM-GBSA binding.
export { auditLigandPhysics, CONFORMER_SEARCH } from "./ligand-physics.ts";
export { MD_STABILITY_CAPS, MD_STABILITY_SETTINGS, simulatePoseStability } from "./md-stability.ts";
export { MM_GBSA_CAPS, prepareMmGbsaReceptor, scoreMmGbsa } from "./mm-gbsa.ts";
export { PHYSICS_CAPS } from "./physics-methods.ts";
