// @svc/science/cns: CNS penetration (CNS MPO).
export { CNS_MPO_COMPONENTS, CNS_MPO_THRESHOLD } from "./cns-mpo.ts";
export { type CnsPenetrationFinding, cnsPenetration } from "./cns-penetration.ts";
