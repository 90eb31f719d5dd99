// @svc/science/structure-modules: the structure modules this build implements, in run order, and the
// docking cap. Their own entry, not part of /structure: they read run folders through core, which the
// compound workers that load the other entries never need.
export { DOCKING_CHUNK, MOLECULAR_DOCKING_MAX_COMPOUNDS } from "./docking-cap.ts";
export { STRUCTURE_MODULES } from "./structure-modules.ts";
