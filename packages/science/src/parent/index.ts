// @svc/science/parent: the parent compound (salt stripping, neutralisation, class domain) and
// molecular_logic, the module that records it.
export type { MolecularLogicFinding, MolecularLogicSummary } from "../molecular-logic.ts";
export { CLASS_DOMAIN_RULE } from "./class-domain.ts";
export { valuesOutOfDomain } from "./values-out-of-domain.ts";
export { releaseParentMol } from "./with-parent-mol.ts";
