// @svc/science/physics: ligand physics (conformers, xTB), MM-GBSA binding and the GFN2 QM cluster.
export { auditLigandPhysics, CONFORMER_SEARCH } from "./ligand-physics.ts";
export { MD_STABILITY_CAPS, MD_STABILITY_SETTINGS, simulatePoseStability } from "./md-stability.ts";
export { MM_GBSA_CAPS, prepareMmGbsaReceptor, scoreMmGbsa } from "./mm-gbsa.ts";
export { PHYSICS_CAPS } from "./physics-methods.ts";
export { QM_CLUSTER_CAPS, scoreQmCluster } from "./qm-cluster-energy.ts";
