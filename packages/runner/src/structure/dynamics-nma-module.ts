import { analyseDynamicsNma, DYNAMICS_NMA_METHOD, type DynamicsNmaResult } from "@svc/science";
import type { StructureModule } from "./structure-module.ts";

/** `dynamics_nma` as a structure module: the Cα ANM of each staged structure (science's analyseDynamicsNma). */
export const dynamicsNmaModule: StructureModule<DynamicsNmaResult> = {
  id: "dynamics_nma",
  version: "1.0.0",
  method: DYNAMICS_NMA_METHOD,
  riskChannel: "biology",
  requiredInputs: ["structures"],
  assessStructure: async ({ parsed, staged }) => analyseDynamicsNma(parsed, staged.pocket),
};
