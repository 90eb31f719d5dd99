// @svc/science/cns: CNS penetration (CNS MPO).
export { cnsPenetration } from "./cns-penetration.ts";
